import TrellisWire

extension Surface {
    /// Every cell, row-major (`y * size.width + x`): for code that scans a whole surface,
    /// such as a terminal writer's diff, where a subscript per cell would cost a bounds
    /// check and a precondition each. Shares storage with the surface until either changes.
    public var rowMajorCells: [Cell] { cells }
}
