// swift-tools-version:6.0
// The fuzz targets of Trellis's decoders (docs/PROTOCOL.md, "Fuzzing").
//
// A package of its own, beside the root one rather than inside it: its executable
// links only when built with `-sanitize=fuzzer`, which a plain `swift build` of the
// root package must never need. deploy/fuzz builds it and runs its targets.
import Foundation
import PackageDescription

// A path dependency is named by its directory, which is whatever the checkout is
// called (trellis, wt-fuzz, a CI workspace), so the name is read rather than written.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let trellis = root.lastPathComponent.lowercased()

let package = Package(
    name: "TrellisFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: root.path),
    ],
    targets: [
        // libFuzzer's own entry point, which Swift has no declaration of.
        .target(name: "CLibFuzzer"),
        .executableTarget(
            name: "trellis-fuzz",
            dependencies: [
                "CLibFuzzer",
                .product(name: "TrellisWire", package: trellis),
                .product(name: "TrellisTerminal", package: trellis),
                .product(name: "TrellisCanvas", package: trellis),
                .product(name: "TrellisViews", package: trellis),
                .product(name: "TrellisSupervisor", package: trellis),
                .product(name: "TrellisTransport", package: trellis),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
