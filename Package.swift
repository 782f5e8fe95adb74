// swift-tools-version:6.0
// Trellis — UIKit's view-controller containment for the terminal, over ZeroMQ.
//
// Layers (dependencies point one way: a module uses only modules above it in this list):
//   SeededRandom      a seeded generator (SplitMix64): the same numbers from one seed on every machine
//   CZeroMQ           libzmq from the system, nothing else
//   CPlatform         the OS and libdispatch calls an I/O loop needs: wake-ups, thread names,
//                     CPU affinity, the main queue's hooks; and a pidfd, for a supervised process
//   CEpoll            Linux's epoll, what an I/O loop sleeps in (apart from CPlatform's _GNU_SOURCE)
//   TrellisWire       the wire protocol: message values and their binary encoding (no I/O), the
//                     reserved ids, the terminal-traits rule, the `tree` reply (ControllerDescription)
//   TrellisSession    a session's private run directory, its state file, and the processes it
//                     verifies: start times, pulses, supervision, signals as events
//   TrellisLog        the routing log: one JSON line per message event, written off the hot path
//                     into a private directory
//   TrellisTransport  libzmq sockets owned by I/O loops, and links between controllers
//   TrellisLayout     constraints and an incremental Cassowary solver (no I/O, no views)
//   TrellisCanvas     cells, geometry and surfaces with damage: what views draw into (no I/O)
//   TrellisTerminal   the terminal itself: screens out as escape sequences, input bytes in as key,
//                     touch and paste events, modes, raw mode and restoring them
//   TrellisViews      views in cells, anchors on the solver, widgets, view files (no global actor:
//                     a tree is its owner's, docs/VIEWS.md)
//   TrellisControllers controllers: lifecycle, containment, appearance, traits, touches, containers
//   TrellisHost       controllers in other processes: their links, proxies and the host runtime
//   TrellisCompositor the render server: surfaces and placements into one screen, headless or a terminal
//                     (no controllers: it speaks to the root in wire messages)
//   TrellisApp        an app binary's entry point: register the controller classes, get `host` and `classes`
//   TrellisSupervisor scene files, and the supervisor that starts, restarts and stops a session
//                     (it asks the compositor to take the tree down over a link of its own)
//   TrellisClient     test clients: attach to a running session, drive it, read its screen and log
//                     (over a link; neither the compositor nor the controllers are linked in)
//   TrellisSeeds      the seeds app's controllers (the demo, the parity tests)
//   Benchmarks/TrellisBenchmarks  the benchmarks: each measured beside its baseline (`trellis bench NAME`)
//   Services/trellis-app  the seeds app's binary: TrellisApp with the seeds' classes
//   Services/trellis-compositor  the render server process
//   Services/trellis  the command-line tool (up, down, ps, tree, screen, tap, wait, logs, trace, peer, …)
import PackageDescription

let package = Package(
    name: "Trellis",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TrellisWire", targets: ["TrellisWire"]),
        .library(name: "TrellisSession", targets: ["TrellisSession"]),
        .library(name: "TrellisLog", targets: ["TrellisLog"]),
        .library(name: "TrellisTransport", targets: ["TrellisTransport"]),
        .library(name: "TrellisLayout", targets: ["TrellisLayout"]),
        .library(name: "TrellisCanvas", targets: ["TrellisCanvas"]),
        .library(name: "TrellisTerminal", targets: ["TrellisTerminal"]),
        .library(name: "TrellisViews", targets: ["TrellisViews"]),
        .library(name: "TrellisControllers", targets: ["TrellisControllers"]),
        .library(name: "TrellisHost", targets: ["TrellisHost"]),
        .library(name: "TrellisCompositor", targets: ["TrellisCompositor"]),
        .library(name: "TrellisApp", targets: ["TrellisApp"]),
        .library(name: "TrellisSupervisor", targets: ["TrellisSupervisor"]),
        .library(name: "TrellisClient", targets: ["TrellisClient"]),
        .executable(name: "trellis-app", targets: ["trellis-app"]),
        .executable(name: "trellis-compositor", targets: ["trellis-compositor"]),
        .executable(name: "trellis", targets: ["trellis"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .target(name: "SeededRandom"),
        .systemLibrary(
            name: "CZeroMQ",
            path: "Sources/CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"]), .brew(["zeromq"])]
        ),
        // Header only: the OS and libdispatch calls an I/O loop needs (wake-ups, thread
        // names, CPU affinity, the main queue's hooks), nothing to link beyond libc.
        .systemLibrary(name: "CPlatform", path: "Sources/CPlatform"),
        // Header only: <sys/epoll.h>, which Swift's Glibc does not bring, kept apart from
        // CPlatform's _GNU_SOURCE (Sources/CEpoll/epoll.h says why).
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        .target(name: "TrellisWire"),
        .target(name: "TrellisSession", dependencies: ["CPlatform"]),
        .target(name: "TrellisLog", dependencies: ["SeededRandom", "TrellisWire", "TrellisSession"]),
        .target(
            name: "TrellisTransport",
            dependencies: [
                "CZeroMQ", "CPlatform", "CEpoll", "TrellisWire", "TrellisSession", "TrellisLog",
                .product(name: "Collections", package: "swift-collections"),
            ]
        ),
        .target(name: "TrellisLayout"),
        .target(name: "TrellisCanvas", dependencies: ["TrellisWire"]),
        .target(name: "TrellisTerminal", dependencies: ["TrellisCanvas", "TrellisWire"]),
        .target(
            name: "TrellisViews",
            dependencies: ["TrellisCanvas", "TrellisLayout", "TrellisWire", .product(name: "Yams", package: "Yams")]
        ),
        .target(name: "TrellisControllers", dependencies: ["TrellisViews", "TrellisCanvas", "TrellisWire", "TrellisLog"]),
        .target(
            name: "TrellisHost",
            dependencies: [
                "TrellisControllers", "TrellisViews", "TrellisCanvas", "TrellisTransport", "TrellisLog", "TrellisWire",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "TrellisCompositor",
            dependencies: ["TrellisCanvas", "TrellisTerminal", "TrellisWire", "TrellisTransport", "TrellisLog"]
        ),
        .target(
            name: "TrellisApp",
            dependencies: [
                "TrellisHost", "TrellisControllers", "TrellisViews", "TrellisCanvas", "TrellisTransport", "TrellisSession", "TrellisLog",
                "TrellisWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "TrellisSupervisor",
            dependencies: [
                "TrellisCanvas", "TrellisWire", "TrellisSession", "TrellisLog", "TrellisTransport", "TrellisTerminal",
                "TrellisViews", .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(name: "TrellisClient", dependencies: ["TrellisCanvas", "TrellisWire", "TrellisSession", "TrellisLog", "TrellisTransport"]),
        .target(name: "TrellisSeeds", dependencies: ["TrellisControllers", "TrellisViews", "TrellisCanvas", "TrellisWire"]),
        .target(
            name: "TrellisBenchmarks",
            dependencies: [
                "SeededRandom", "CZeroMQ", "CPlatform", "TrellisWire", "TrellisSession", "TrellisLog", "TrellisTransport", "TrellisLayout",
                "TrellisCanvas", "TrellisTerminal", "TrellisViews", "TrellisControllers", "TrellisHost", "TrellisCompositor",
                "TrellisClient", "TrellisSeeds",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/TrellisBenchmarks"
        ),
        .executableTarget(
            name: "trellis-app",
            dependencies: ["TrellisApp", "TrellisSeeds"],
            path: "Services/trellis-app"
        ),
        .executableTarget(
            name: "trellis-compositor",
            dependencies: [
                "TrellisCompositor", "TrellisCanvas", "TrellisTerminal", "TrellisTransport", "TrellisSession", "TrellisLog", "TrellisWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Services/trellis-compositor"
        ),
        .executableTarget(
            name: "trellis",
            dependencies: [
                "SeededRandom", "TrellisWire", "TrellisSession", "TrellisLog", "TrellisTransport", "TrellisCanvas", "TrellisTerminal",
                "TrellisSupervisor", "TrellisClient", "TrellisBenchmarks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Services/trellis"
        ),
        // Helpers several test targets share (not a product).
        .target(name: "TrellisTestSupport", path: "Tests/TrellisTestSupport"),
        .testTarget(name: "TrellisWireTests", dependencies: ["SeededRandom", "TrellisWire", "TrellisTestSupport"]),
        .testTarget(name: "TrellisSessionTests", dependencies: ["TrellisSession", "TrellisTestSupport"]),
        .testTarget(name: "TrellisLogTests", dependencies: ["TrellisLog", "TrellisSession", "TrellisTestSupport"]),
        .testTarget(name: "TrellisTransportTests", dependencies: ["TrellisTransport", "TrellisSession", "CZeroMQ", "CPlatform"]),
        .testTarget(name: "TrellisLayoutTests", dependencies: ["TrellisLayout"]),
        .testTarget(name: "TrellisTerminalTests", dependencies: ["SeededRandom", "TrellisTerminal", "TrellisCanvas", "TrellisWire"]),
        .testTarget(name: "TrellisViewsTests", dependencies: ["TrellisViews", "TrellisCanvas", "TrellisWire", "TrellisTestSupport"]),
        .testTarget(
            name: "TrellisHostTests",
            dependencies: ["TrellisHost", "TrellisSeeds", "TrellisClient", "TrellisSupervisor", "TrellisControllers", "TrellisTransport", "TrellisSession", "TrellisLog", "TrellisWire", "TrellisCanvas", "TrellisTestSupport"]
        ),
        .testTarget(
            name: "TrellisControllersTests",
            dependencies: ["SeededRandom", "TrellisControllers", "TrellisViews", "TrellisCanvas", "TrellisWire", "TrellisLog", "TrellisTestSupport"]
        ),
        .testTarget(name: "TrellisCanvasTests", dependencies: ["SeededRandom", "TrellisCanvas", "TrellisTestSupport"]),
        .testTarget(
            name: "TrellisCompositorTests",
            dependencies: ["SeededRandom", "TrellisCompositor", "TrellisTerminal", "TrellisTransport", "TrellisCanvas", "TrellisWire", "TrellisLog", "TrellisTestSupport"]
        ),
        .testTarget(
            name: "TrellisSupervisorTests",
            dependencies: ["TrellisSupervisor", "TrellisClient", "TrellisLog", "TrellisWire", "TrellisCanvas", "TrellisTestSupport"]
        ),
        .testTarget(
            name: "TrellisSeedsTests",
            dependencies: ["TrellisSeeds", "TrellisControllers", "TrellisViews", "TrellisCanvas", "TrellisWire"]
        ),
        .testTarget(name: "TrellisAppTests", dependencies: ["TrellisApp", "TrellisControllers"]),
        .testTarget(name: "TrellisBenchmarksTests", dependencies: ["TrellisBenchmarks", "TrellisCanvas", "TrellisWire"]),
    ],
    swiftLanguageModes: [.v6]
)
