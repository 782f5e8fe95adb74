import Foundation
import Testing
import TrellisCanvas
import TrellisWire
@testable import TrellisViews

/// Declarative view files (S2-1's xibs): what they build, and how they refuse garbage.
@MainActor
@Suite struct ViewFileTests {
    let loader = ViewFileLoader(directory: URL(fileURLWithPath: "/nonexistent"))

    func error(_ yaml: String) -> ViewFileError? {
        do {
            _ = try loader.load(yaml: yaml, file: "Bad.view.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test func buildsTheTreeTheFileDescribes() throws {
        let v = try loader.load(yaml: """
            class: View
            identifier: card
            frame: [1, 2, 30, 5]
            background: blue
            border: rounded
            subviews:
              - class: Label
                identifier: title
                text: "こんにちは"
                alignment: center
                frame: [1, 1, 28, 1]
              - class: Button
                title: OK
                frame: [12, 3, 6, 1]
                hidden: true
            """, file: "Card.view.yaml")
        #expect(v.identifier == "card" && v.frame == Rect(x: 1, y: 2, width: 30, height: 5))
        #expect(v.backgroundColor == .indexed(4) && v.border == .rounded)
        let title = try #require(v.view(withIdentifier: "title") as? Label)
        #expect(title.text == "こんにちは" && title.alignment == .center)
        #expect(title.intrinsicContentSize == Size(width: 10, height: 1))
        #expect((v.subviews[1] as? Button)?.isHidden == true)
    }

    @Test func textFieldsAndFootersComeFromFilesToo() throws {
        // Issue 22: a form's fields are declared like its labels.
        let v = try loader.load(yaml: """
            class: View
            subviews:
              - class: TextField
                identifier: name
                placeholder: "お名前"
                frame: [0, 0, 20, 1]
              - class: TextField
                identifier: password
                text: hunter2
                secure: true
                frame: [0, 2, 20, 1]
              - class: KeyCommandFooter
                frame: [0, 4, 40, 1]
              - class: TextView
                text: "読むだけ"
                editable: false
              - class: Label
                text: "長い説明文"
                lines: 0
                lineBreak: byTruncatingTail
            """, file: "Form.view.yaml")
        let reader = try #require(v.subviews[3] as? TextView)
        #expect(reader.text == "読むだけ" && !reader.isEditable)
        let note = try #require(v.subviews[4] as? Label)
        #expect(note.numberOfLines == 0 && note.lineBreakMode == .byTruncatingTail)
        let name = try #require(v.subviews[0] as? TextField)
        #expect(name.placeholder == "お名前" && name.text.isEmpty)
        let password = try #require(v.subviews[1] as? TextField)
        #expect(password.isSecureTextEntry && password.text == "hunter2")
        #expect(v.subviews[2] is KeyCommandFooter)
    }

    @Test(arguments: [
        ("class: Nope", 1, "class", "unknown view class 'Nope'"),
        ("class: View\nwobble: 3", 2, "wobble", "unknown field"),
        ("class: View\nframe: [1, 2, 3]", 2, "frame", "expected [x, y, width, height]"),
        ("class: View\nframe: [0, 0, -1, 2]", 2, "frame", "cannot be negative"),
        // YAML 1.1's base-60 numbers are not a view file's: this one trapped in Yams'
        // reading of it (the view fuzz target, 2026-11-27).
        ("class: View\nframe: [9223372036820367:58054:75807, 0, 10, 1]", 2, "frame", "expected [x, y, width, height]"),
        ("class: View\nframe: [1:30, 0, 10, 1]", 2, "frame", "expected [x, y, width, height]"),
        ("class: Label\nlines: 9223372036820367:58054:75807", 2, "lines", "expected a whole number"),
        ("class: View\nbackground: mauve", 2, "background", "unknown colour 'mauve'"),
        ("class: View\ntext: hi", 2, "text", "only a Label, a TextField or a TextView has text"),
        ("class: Label\neditable: false", 2, "editable", "only a TextView is editable or not"),
        ("class: Label\nplaceholder: hi", 2, "placeholder", "only a TextField has a placeholder"),
        ("class: Label\nlines: -1", 2, "lines", "cannot be negative"),
        ("class: Button\nlines: 2", 2, "lines", "only a Label has lines"),
        ("class: Label\nlineBreak: sideways", 2, "lineBreak", "one of byWordWrapping, byCharWrapping, byClipping, byTruncatingTail"),
        ("class: TextField\nsecure: maybe", 2, "secure", "expected true or false"),
        ("class: Button\nsecure: true", 2, "secure", "only a TextField has secure entry"),
        ("class: Label\nhidden: perhaps", 2, "hidden", "expected true or false"),
        ("identifier: x", 1, "class", "missing"),
        ("class: View\nsubviews: {a: 1}", 2, "subviews", "expected a list of views"),
        ("class: View\nsubviews:\n  - 42", 3, nil, "a view is a mapping of fields"),
        ("- just\n- a list", 1, nil, "a view is a mapping of fields"),
    ] as [(String, Int, String?, String)])
    func garbageIsRefusedWithFileLineAndField(_ yaml: String, _ line: Int, _ field: String?, _ message: String) throws {
        let e = try #require(error(yaml))
        #expect(e.file == "Bad.view.yaml")
        #expect(e.line == line)
        #expect(e.field == field)
        #expect(e.message.contains(message), "\(e)")
    }

    @Test func brokenYAMLAndEmptyFilesAreRefused() {
        #expect(error("class: [unclosed")?.message.contains("not valid YAML") == true)
        #expect(error("")?.message == "the file is empty")
        #expect(error("class: View\n\t bad indent: : :") != nil)
    }

    /// Found fuzzing view files: aliases that name aliases ask for 10^n views in as many
    /// lines, and the loader built them all (seven levels, 500 bytes, ran for minutes).
    @Test func aliasesCannotMultiplyViewsBeyondTheBound() throws {
        var yaml = "class: View\nsubviews:\n  - &a0 {class: View}\n"
        for level in 1...5 {
            yaml += "  - &a\(level) {class: View, subviews: [\(Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", "))]}\n"
        }
        let refused = error(yaml)
        #expect(refused?.message.contains("more than 10000 views") == true, "\(String(describing: refused))")
        // The bound is per load: the next file starts from zero.
        _ = try loader.load(yaml: "class: View\nsubviews: [\(Array(repeating: "{class: Label}", count: 100).joined(separator: ", "))]", file: "Many.view.yaml")
    }

    /// Found by the `view` fuzz target (a newcomer's `./deploy/test`, 2026-11-25): nested
    /// aliases used as a mapping key. Yams hashes every key whole to find duplicates,
    /// and this one expands to ten million nodes; `compose` ran 27 s and more. A key
    /// that is not a name is refused before Yams composes the file.
    @Test(arguments: [
        "[*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]: x",
        "? - *a5\n  - *a5\n: x",
        "*a5 : x",
        "{[*a5, *a5]: x}: y",
    ])
    func aliasesInAKeyAreRefusedBeforeTheyAreExpanded(key: String) {
        var yaml = "class: View\nsubviews:\n  - &a0 {class: View}\n"
        for level in 1...5 {
            yaml += "  - &a\(level) {class: View, subviews: [\(Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ","))]}\n"
        }
        yaml += key + "\n"
        let refused = error(yaml)
        #expect(refused?.message.hasPrefix("a mapping key must be a name") == true, "\(String(describing: refused))")
        #expect(refused?.line != nil)
    }

    /// Found by the `view` fuzz target: a frame near `Int.max` loaded, then drawing it
    /// overflowed (`Rect.maxX`) and stopped the process.
    @Test(arguments: [
        "[9223372036854775807, 0, 10, 1]", "[0, -9223372036854775808, 1, 1]",
        "[0, 0, 9223372036854775807, 3]", "[0, 0, 1, 65536]", "[-65536, 0, 1, 1]",
    ])
    func framesBeyondASurfaceAreRefused(frame: String) {
        let refused = error("class: View\nframe: \(frame)")
        #expect(refused?.field == "frame" && refused?.line == 2, "\(String(describing: refused))")
    }

    @Test func framesAtTheBoundLoadAndDraw() throws {
        let v = try loader.load(yaml: "class: Label\ntext: hi\nborder: single\nframe: [-65535, 65535, 65535, 65535]", file: "Edge.view.yaml")
        let root = View(frame: Rect(x: 0, y: 0, width: 10, height: 3))
        root.addSubview(v)
        var s = Surface(size: root.bounds.size)
        ViewRenderer.render(root, into: &s)
        #expect(v.frame == Rect(x: -65535, y: 65535, width: 65535, height: 65535))
    }

    @Test func includedFilesMustExistAndNotIncludeThemselves() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-vf-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "class: View\nsubviews:\n  - file: B".write(to: dir.appendingPathComponent("A.view.yaml"), atomically: true, encoding: .utf8)
        try "class: View\nsubviews:\n  - file: A".write(to: dir.appendingPathComponent("B.view.yaml"), atomically: true, encoding: .utf8)
        try "class: View\nsubviews:\n  - file: Missing".write(to: dir.appendingPathComponent("C.view.yaml"), atomically: true, encoding: .utf8)
        let l = ViewFileLoader(directory: dir)
        #expect(throws: ViewFileError.self) { try l.load(named: "A") }
        do { _ = try l.load(named: "A") } catch { #expect(error.description.contains("includes itself through A → B → A"), "\(error)") }
        do { _ = try l.load(named: "C") } catch { #expect(error.description.contains("no such view file"), "\(error)") }
        // After a failure the loader is still usable.
        try "class: Label\ntext: ok".write(to: dir.appendingPathComponent("D.view.yaml"), atomically: true, encoding: .utf8)
        #expect((try l.load(named: "D") as? Label)?.text == "ok")
    }
}

/// Drawing: what each widget puts in its cells.
@MainActor
@Suite struct RenderingTests {
    func render(_ root: View) -> Surface {
        var s = Surface(size: root.bounds.size)
        root.layoutIfNeeded()
        ViewRenderer.render(root, into: &s)
        return s
    }

    @Test func wideCharactersTakeTwoCellsAndAreCutWhole() {
        let root = View(frame: Rect(x: 0, y: 0, width: 9, height: 1))
        let label = Label("あいうえお", frame: Rect(x: 0, y: 0, width: 9, height: 1))
        root.addSubview(label)
        let s = render(root)
        // Four fit (8 cells); the fifth would be split by the edge, so it is not drawn.
        #expect(s.text == "あいうえ")
        #expect(s[1, 0].scalar == Cell.continuation)
        #expect(s[8, 0].scalar == 0x20)
    }

    @Test func hiddenViewsAndViewportsAreNotDrawnButViewportsArePlaced() {
        let root = View(frame: Rect(x: 0, y: 0, width: 10, height: 3))
        let hidden = Label("hidden", frame: Rect(x: 0, y: 0, width: 6, height: 1))
        hidden.isHidden = true
        root.addSubview(hidden)
        let holder = View(frame: Rect(x: 2, y: 1, width: 6, height: 2))
        holder.clipsToBounds = true
        root.addSubview(holder)
        let viewport = Label("child's", frame: Rect(x: 1, y: 0, width: 10, height: 2))
        viewport.owner = FakeOwner.shared
        holder.addSubview(viewport)
        var s = Surface(size: root.bounds.size)
        let placements = ViewRenderer.render(root, into: &s)
        #expect(!s.text.contains("hidden") && !s.text.contains("child"))
        #expect(placements.count == 1)
        #expect(placements[0].frame == Rect(x: 3, y: 1, width: 10, height: 2))
        #expect(placements[0].clip == Rect(x: 2, y: 1, width: 6, height: 2))
        viewport.owner = nil
    }

    @Test func buttonsFireOnTapInsideOnly() {
        let root = View(frame: Rect(x: 0, y: 0, width: 20, height: 3))
        let b = Button(title: "OK", frame: Rect(x: 2, y: 1, width: 6, height: 1))
        var taps = 0
        b.addAction { _ in taps += 1 }
        root.addSubview(b)
        #expect(render(root).text.contains("OK"))
        b.deliver([Touch(phase: .began, location: Point(x: 3, y: 1))])
        b.deliver([Touch(phase: .ended, location: Point(x: 3, y: 1))])
        b.deliver([Touch(phase: .began, location: Point(x: 3, y: 1))])
        b.deliver([Touch(phase: .ended, location: Point(x: 15, y: 2))])  // lifted outside
        #expect(taps == 1)
    }
}

final class FakeOwner: Responder, ViewOwner {
    @MainActor static let shared = FakeOwner()
    func viewWillLayoutSubviews() {}
    func viewDidLayoutSubviews() {}
    func refusalToEmbed(in superview: View) -> String? { nil }
    func rootViewDidMove(from oldSuperview: View?) {}
}
