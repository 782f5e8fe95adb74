import TrellisApp

/// A count and a button that adds one to it. In its own process (dashboard.yaml): kill
/// it and the supervisor starts it again, while the rest of the screen stays; the count
/// comes back with it, kept by its parent's process (state restoration).
final class CounterController: ViewController {
    private var count = 0
    private let label = Label("count: 0")
    private let plus = Button(title: "+1")

    override func viewDidLoad() {
        super.viewDidLoad()
        view.border = .rounded
        label.frame = Rect(x: 2, y: 1, width: 20, height: 1)
        plus.frame = Rect(x: 2, y: 3, width: 6, height: 1)
        plus.backgroundColor = .indexed(4)
        label.text = "count: \(count)"
        plus.addAction { [unowned self] _ in
            count += 1
            label.text = "count: \(count)"
            setNeedsStateSave()
        }
        view.addSubview(label)
        view.addSubview(plus)
    }

    // What to keep across a restart; given back before viewDidLoad.
    override func encodeRestorableState(with coder: RestorationCoder) {
        coder.encode(count, forKey: "count")
    }

    override func decodeRestorableState(with coder: RestorationCoder) {
        count = coder.decode(Int.self, forKey: "count") ?? 0
    }
}
