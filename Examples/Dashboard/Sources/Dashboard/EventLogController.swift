import TrellisApp

/// What happened to this controller, newest last: the lifecycle callbacks its parent
/// caused from another process, rows chosen, and a tick every second while it is shown.
/// A filter field above the list keeps the lines that contain what is typed in it.
final class EventLogController: ViewController, TableViewDataSource, TableViewDelegate {
    private var events: [String] = []
    private let filter = TextField(placeholder: "filter")
    private let table = TableView()

    /// The events the filter keeps, in order.
    private var shown: [String] {
        filter.text.isEmpty ? events : events.filter { $0.lowercased().contains(filter.text.lowercased()) }
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.border = .rounded
        // Typing here — Tab to it, or click it — filters the list as you type.
        filter.addAction(for: .editingChanged) { [unowned self] _ in reload() }
        table.register(TableViewCell.self, forCellReuseIdentifier: "event")
        table.dataSource = self
        table.delegate = self
        view.addSubview(filter)
        view.addSubview(table)
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

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let width = max(0, view.bounds.width - 4)
        filter.frame = Rect(x: 2, y: 1, width: width, height: 1)
        table.frame = Rect(x: 2, y: 2, width: width, height: max(0, view.bounds.height - 3))
    }

    private func note(_ event: String) {
        events.append(event)
        reload()
    }

    /// The list again, its newest line in view.
    private func reload() {
        table.reloadData()
        let rows = shown.count
        if rows > 0 { table.scrollToRow(at: IndexPath(row: rows - 1, section: 0)) }
    }

    // MARK: The table's rows

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { shown.count }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "event", for: indexPath)
        cell.textLabel.text = shown[indexPath.row]
        return cell
    }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        note("chose \(shown[indexPath.row])")
    }
}
