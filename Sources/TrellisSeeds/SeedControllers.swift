import TrellisControllers
import TrellisWire

/// The controller classes of the seeds app, by name: what a host process can run, and
/// how a container asks for a child. A container that makes its children with
/// `registry.make(name, id:)` lets the host decide where each one lives: a host
/// registers a proxy under the names of classes whose instances run in other processes,
/// so the same container code embeds an in-process child or a `RemoteController`.
public enum SeedControllers {
    /// Registers every class of the seeds app in `registry`. Containers are handed
    /// `registry` to make their children by name; the factories capture it unowned, as
    /// the registry holds them.
    public static func register(in registry: ControllerRegistry) {
        // The placement-parity tests (issue 4).
        registry.register("ParityContainer") { [unowned registry] id in ParityContainer(registry: registry, id: id ?? "Container") }
        registry.register("ParityChild") { id in ParityChild(id: id) }
        registry.register("ParityLeaf") { id in ParityLeaf(id: id) }
        registry.register("ParityTabs") { [unowned registry] id in ParityTabs(registry: registry, id: id) }
        registry.register("ParityStep") { id in ParityStep(id: id) }
        registry.register("ParityPushed") { id in ParityStep(id: id) }
        registry.register("ParityNavigation") { [unowned registry] id in ParityNavigation(registry: registry, id: id ?? "Nav") }
        registry.register("ParityPages") { id in ParityPages(id: id) }
        registry.register("ParityFocusContainer") { [unowned registry] id in ParityFocusContainer(registry: registry, id: id ?? "Container") }
        registry.register("ParityForm") { id in ParityForm(id: id) }
        registry.register("ParityList") { id in ParityList(id: id) }
        registry.register("ParityPresenter") { [unowned registry] id in ParityPresenter(registry: registry, id: id ?? "Container") }
        registry.register("ParityPresented") { id in ParityPresented(id: id) }
        registry.register("ParityChildPresenter") { id in ParityChildPresenter(id: id) }
        registry.register("ParityPresentingContainer") { [unowned registry] id in
            ParityContainer(registry: registry, id: id ?? "Container", childClass: "ParityChildPresenter")
        }

        // The benchmarks' trees (BenchControllers.swift): root → middle → leaf for latency,
        // the same with a text field for keys, a grid of tiles for scale.
        registry.register("TapRoot") { [unowned registry] id in
            TapRelay(registry: registry, id: id ?? "Root", childClass: "TapMiddle", childID: "Middle")
        }
        registry.register("TapMiddle") { [unowned registry] id in
            TapRelay(registry: registry, id: id ?? "Middle", childClass: "TapLeaf", childID: "Leaf")
        }
        registry.register("TapLeaf") { id in TapLeaf(id: id ?? "Leaf") }
        // The same relays with a text field at the bottom, for keys.
        registry.register("KeyRoot") { [unowned registry] id in
            TapRelay(registry: registry, id: id ?? "Root", childClass: "KeyMiddle", childID: "Middle")
        }
        registry.register("KeyMiddle") { [unowned registry] id in
            TapRelay(registry: registry, id: id ?? "Middle", childClass: "KeyLeaf", childID: "Leaf")
        }
        registry.register("KeyLeaf") { id in KeyLeaf(id: id ?? "Leaf") }
        registry.register("ScaleGrid") { [unowned registry] id in ScaleGrid(registry: registry, id: id ?? "Grid") }
        registry.register("ScaleTile") { id in ScaleTile(id: id) }

        // The demo: one tab per seed.
        registry.register("DemoTabs") { [unowned registry] id in DemoTabs(registry: registry, id: id ?? "Demo") }

        // Seed 000: the circle.
        registry.register("Seed000") { [unowned registry] id in Seed000(registry: registry, id: id ?? "Seed000") }
        registry.register("Seed000Circle") { id in CircleChild(id: id ?? "Circle") }

        // Seed 001: embedding, switching, detail pushes.
        registry.register("Seed001") { [unowned registry] id in Seed001(registry: registry, id: id ?? "Seed001") }
        registry.register("Seed001Sub1") { id in Seed001Sub(name: "Sub1", detail: "Sub1Detail", id: id) }
        registry.register("Seed001Sub2") { id in Seed001Sub(name: "Sub2", detail: nil, id: id) }
        registry.register("MainDetail") { id in Seed001Detail(name: "MainDetail", pushedBy: "Main", id: id) }
        registry.register("Sub1Detail") { id in Seed001Detail(name: "Sub1Detail", pushedBy: "Sub1", id: id) }

        // Seed 002: nested views loaded from view files.
        registry.register("Seed002") { [unowned registry] id in Seed002(registry: registry, id: id ?? "Seed002") }
        registry.register("Seed002Sub") { id in Seed002Sub(id: id ?? "Sub") }
        registry.register("Seed002Other") { id in Seed002Other(id: id ?? "Other") }

        // Seed 003: the animated cycle.
        registry.register("Seed003") { [unowned registry] id in Seed003(registry: registry, id: id ?? "Seed003") }
        registry.register("Seed003Card") { id in Seed003Card(id: id ?? "Card") }

        // Seed 004: three paging styles.
        registry.register("Seed004") { [unowned registry] id in Seed004(registry: registry, id: id ?? "Seed004") }
        registry.register("Seed004Fixed") { id in ScrollPaging(style: .fixed, id: id ?? "Fixed") }
        registry.register("Seed004Bounded") { id in ScrollPaging(style: .bounded, id: id ?? "Bounded") }
        registry.register("Seed004Pager") { id in PagerContainer(id: id ?? "Pager") }

        // The sixth tab: keys, text and lists (issues 22 and 23).
        registry.register("DemoKeys") { id in DemoKeys(id: id ?? "DemoKeys") }
    }
}
