/// How `change` switches the container view between Sub1 and Sub2 (S1-4): the three
/// ways the article lists, each with its own trace in the routing log.
public enum SwitchingStrategy: String, CaseIterable, Sendable {
    /// (a) Both stay embedded; the selected one is brought to the front (a placement's z).
    case bringToFront
    /// (b) Both stay embedded; the unselected one is hidden (a placement not visible).
    case hide
    /// (c) The parent–child relationship itself is swapped (containment messages).
    case swap

    /// The button that selects it.
    public var buttonTitle: String {
        switch self {
        case .bringToFront: "a front"
        case .hide: "b hide"
        case .swap: "c swap"
        }
    }

    /// What it does, in a line.
    public var summary: String {
        switch self {
        case .bringToFront: "(a) both embedded, the selected one brought to the front"
        case .hide: "(b) both embedded, the other one hidden"
        case .swap: "(c) the child itself swapped: remove one, add the other"
        }
    }
}
