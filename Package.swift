// swift-tools-version:6.0
// Trellis — UIKit's view-controller containment for the terminal, over ZeroMQ.
//
// Layers (dependencies point one way):
//   TrellisWire       the wire protocol: message values and their binary encoding (no I/O)
//   TrellisLog        the routing log: one JSON line per message event, written off the hot path
//   TrellisTransport  libzmq sockets owned by I/O loops, and links between controllers
//   TrellisLayout     constraints and an incremental Cassowary solver (no I/O, no views)
//   TrellisCanvas     cells, geometry and surfaces with damage: what views draw into (no I/O)
//   TrellisViews      views in cells, anchors on the solver, widgets, view files (main actor)
//   TrellisControllers controllers: lifecycle, containment, appearance, traits, touches, containers
//   TrellisTerminal   the real terminal: its input bytes as key, touch and paste events (no I/O)
//   Services/trellis  the command-line tool (logs, bench, peer)
import PackageDescription

let package = Package(
    name: "Trellis",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TrellisWire", targets: ["TrellisWire"]),
        .library(name: "TrellisLog", targets: ["TrellisLog"]),
        .library(name: "TrellisTransport", targets: ["TrellisTransport"]),
        .library(name: "TrellisLayout", targets: ["TrellisLayout"]),
        .library(name: "TrellisCanvas", targets: ["TrellisCanvas"]),
        .library(name: "TrellisViews", targets: ["TrellisViews"]),
        .library(name: "TrellisControllers", targets: ["TrellisControllers"]),
        .library(name: "TrellisTerminal", targets: ["TrellisTerminal"]),
        .executable(name: "trellis", targets: ["trellis"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZeroMQ",
            path: "Sources/CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"]), .brew(["zeromq"])]
        ),
        .target(name: "TrellisWire"),
        .target(name: "TrellisLog", dependencies: ["TrellisWire"]),
        .target(
            name: "TrellisTransport",
            dependencies: [
                "CZeroMQ", "TrellisWire", "TrellisLog",
                .product(name: "Collections", package: "swift-collections"),
            ]
        ),
        .target(name: "TrellisLayout"),
        .target(name: "TrellisCanvas", dependencies: ["TrellisWire"]),
        .target(
            name: "TrellisViews",
            dependencies: ["TrellisCanvas", "TrellisLayout", "TrellisWire", .product(name: "Yams", package: "Yams")]
        ),
        .target(name: "TrellisControllers", dependencies: ["TrellisViews", "TrellisCanvas", "TrellisWire", "TrellisLog"]),
        .target(name: "TrellisTerminal", dependencies: ["TrellisWire"]),
        .executableTarget(
            name: "trellis",
            dependencies: [
                "CZeroMQ", "TrellisWire", "TrellisLog", "TrellisTransport", "TrellisLayout",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Services/trellis"
        ),
        .testTarget(name: "TrellisWireTests", dependencies: ["TrellisWire"]),
        .testTarget(name: "TrellisLogTests", dependencies: ["TrellisLog"]),
        .testTarget(name: "TrellisTransportTests", dependencies: ["TrellisTransport", "CZeroMQ"]),
        .testTarget(name: "TrellisLayoutTests", dependencies: ["TrellisLayout"]),
        .testTarget(name: "TrellisViewsTests", dependencies: ["TrellisViews", "TrellisCanvas", "TrellisWire"]),
        .testTarget(
            name: "TrellisControllersTests",
            dependencies: ["TrellisControllers", "TrellisViews", "TrellisCanvas", "TrellisWire", "TrellisLog"]
        ),
        .testTarget(name: "TrellisTerminalTests", dependencies: ["TrellisTerminal", "TrellisWire"]),

    ],
    swiftLanguageModes: [.v6]
)
