import TrellisApp

/// What happened to this controller, newest last: the lifecycle callbacks its parent
/// caused from another process, taps on it, and a tick every second while it is shown —
/// one line each, as many as fit.
final class EventLogController: ViewController {
    private var events: [String] = []
    private var lines: [Label] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        view.border = .rounded
        note("viewDidLoad")
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        note("viewWillAppear")
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        note("viewDidAppear")
        // Drawn with no input: a view's change draws itself. Stops when it disappears.
        scheduleTimer(after: .seconds(1), repeats: true, lifetime: .untilDisappear) { [unowned self] timer in
            note("tick \(timer.fireCount)")
        }
    }

    override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        super.viewWillTransition(to: size, with: coordinator)
        note("size \(size.width)×\(size.height)")
    }

    override func touchesEnded(_ touches: Set<Touch>) {
        note("tapped")
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        show()
    }

    private func note(_ event: String) {
        events.append(event)
        show()
    }

    /// The newest events that fit inside the border, one label per row.
    private func show() {
        let rows = max(0, view.bounds.height - 2)
        while lines.count < rows {
            let line = Label()
            view.addSubview(line)
            lines.append(line)
        }
        let shown = events.suffix(rows)
        for (row, line) in lines.enumerated() {
            line.frame = Rect(x: 2, y: 1 + row, width: max(0, view.bounds.width - 4), height: 1)
            line.text = row < shown.count ? shown[shown.startIndex + row] : ""
        }
    }
}
