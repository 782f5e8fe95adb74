import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

/// Sub1 and Sub2 of seed 001: a label with their name and, for Sub1, a `next` button
/// that asks whoever contains it to show Sub1Detail (S1-3) — by a request up the tree,
/// never knowing what kind of container it is in, or in which process.
public final class Seed001Sub: ViewController {
    public let name: String
    /// The registered controller `next` asks to be shown; nil: no `next` button.
    public let detail: String?

    public init(name: String, detail: String?, id: ControllerID? = nil) {
        self.name = name
        self.detail = detail
        super.init(id: id ?? ControllerID(name))
        title = name
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = detail == nil ? .indexed(3) : .indexed(2)
        let label = Label(name)
        label.attributes = .bold
        var row: [View] = [label]
        if let detail {
            let next = Button(title: "next")
            next.identifier = "\(name).next"
            next.addAction { [unowned self] _ in self.requestShow(detail) }
            row.append(next)
        }
        DemoLayout.row(row, in: view, top: 0, leading: 1, spacing: 2)
        DemoLayout.line(Label("a child embedded by Main (S1-2)"), in: view, top: 1)
    }
}

/// MainDetail and Sub1Detail: what the `next` buttons push (S1-3).
public final class Seed001Detail: ViewController {
    public let name: String
    public let pushedBy: String

    public init(name: String, pushedBy: String, id: ControllerID? = nil) {
        self.name = name
        self.pushedBy = pushedBy
        super.init(id: id ?? ControllerID(name))
        title = name
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .indexed(5)
        DemoLayout.line(Label("\(name): pushed by \(pushedBy)'s next (S1-3)"), in: view, top: 1)
        DemoLayout.line(Label("\(pushedBy) asked up the tree; the navigation controller pushed."), in: view, top: 2)
        DemoLayout.line(Label("‹ Back in the bar pops it."), in: view, top: 4)
    }
}
