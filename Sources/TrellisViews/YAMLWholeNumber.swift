import Yams

extension Node {
    /// The scalar as a whole number written in decimal digits, a sign allowed first; nil
    /// for anything else, a number past `Int`'s range included. Not Yams' `int`, which also
    /// reads YAML 1.1's base-60 form (`1:30`) and traps on its overflow
    /// (`9223372036820367:58054:75807`, found by the view fuzz target): the numbers of a
    /// view file or a scene are cells, counts and seconds, written in decimal.
    public var wholeNumber: Int? {
        guard case .scalar(let scalar) = self else { return nil }
        return Int(scalar.string)
    }
}
