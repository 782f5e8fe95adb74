import TrellisWire

/// A storyboard's embed segue: a child that a scene file places inside one of its
/// parent's container views, made when the parent's view loads.
///
/// As in UIKit, the segue runs after `loadView` and before the parent's `viewDidLoad`:
/// the child is made (through the registry, which is where its process placement is
/// decided), the parent's `prepare(for:destination:)` sees it, the child gets the
/// scene's data as `embedData`, then it is added with `addChild`, its view pinned to the
/// container view's edges, and `didMove(toParent:)`. A parent whose class creates its
/// children in code needs no segue; the scene then only says where they run.
public struct EmbedSegue: Sendable, Equatable {
    /// The child's id.
    public var destination: ControllerID
    /// The registered class of the child.
    public var className: String
    /// The identifier of the parent's view that holds the child's view.
    public var containerView: String
    /// Handed to the child (UIKit's `prepare(for:sender:)` sets properties instead; a
    /// child in another process can only be handed values).
    public var data: [String: String]

    public init(destination: ControllerID, className: String, containerView: String, data: [String: String] = [:]) {
        self.destination = destination
        self.className = className
        self.containerView = containerView
        self.data = data
    }
}

/// Why an embed segue could not run; logged as a rejected `segue` line, and the parent
/// loads without that child rather than not at all.
public enum EmbedSegueFailure: Error, Equatable, CustomStringConvertible {
    case noContainerView(String)
    case unknownClass(String)

    public var description: String {
        switch self {
        case .noContainerView(let v): "the parent's view has no subview with identifier '\(v)'"
        case .unknownClass(let c): "no controller class '\(c)' is registered"
        }
    }
}
