// The app binary: its controller classes by name, handed to Trellis. The scene
// (dashboard.yaml) says which of them run, and where.
import TrellisApp

TrellisApp.main { registry in
    registry.register("Dashboard") { [unowned registry] id in DashboardController(registry: registry, id: id ?? "Dashboard") }
    registry.register("Counter") { id in CounterController(id: id) }
    registry.register("EventLog") { id in EventLogController(id: id) }
}
