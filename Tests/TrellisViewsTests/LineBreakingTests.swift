import Testing
import TrellisCanvas
@testable import TrellisViews

/// Issue 22, "a Label that wraps (number of lines, line-break mode)" (docs/VIEWS.md,
/// "Labels"): lines by display width, wide characters and combining marks whole.
@MainActor
@Suite struct LineBreakingTests {
    @Test func wordsWrapAtSpacesAndALongWordBreaksBetweenCharacters() {
        #expect(LineBreaking.lines(of: "the quick brown fox", width: 10, mode: .byWordWrapping) == ["the quick", "brown fox"])
        #expect(LineBreaking.lines(of: "supercalifragilistic", width: 8, mode: .byWordWrapping) == ["supercal", "ifragili", "stic"])
        #expect(LineBreaking.lines(of: "the quick brown fox", width: 10, mode: .byCharWrapping) == ["the quick", "brown fox"])
        #expect(LineBreaking.lines(of: "ab cd", width: 4, mode: .byCharWrapping) == ["ab c", "d"])
    }

    @Test func japaneseWrapsByDisplayWidthNeverSplittingACharacter() {
        // Five columns hold two wide characters, never two and a half.
        #expect(LineBreaking.lines(of: "こんにちは世界", width: 5, mode: .byWordWrapping) == ["こん", "にち", "は世", "界"])
        let marked = "e\u{301}e\u{301}e\u{301}"
        #expect(LineBreaking.lines(of: marked, width: 2, mode: .byCharWrapping) == ["e\u{301}e\u{301}", "e\u{301}"])
    }

    @Test func newlinesAlwaysBreakAndEmptyLinesStay() {
        #expect(LineBreaking.lines(of: "one\n\nthree", width: 10, mode: .byWordWrapping) == ["one", "", "three"])
    }

    @Test func leftOverLinesEndInAnEllipsisOrAreCut() {
        let text = "alpha beta gamma delta"
        #expect(LineBreaking.lines(of: text, width: 10, mode: .byTruncatingTail, maxLines: 2) == ["alpha beta", "gamma del…"])
        #expect(LineBreaking.lines(of: text, width: 10, mode: .byClipping, maxLines: 2) == ["alpha beta", "gamma"])
        #expect(LineBreaking.lines(of: text, width: 11, mode: .byTruncatingTail, maxLines: 2) == ["alpha beta", "gamma delta"])
        #expect(LineBreaking.truncatingTail("日本語のテキスト", width: 7) == "日本語…")
        #expect(LineBreaking.truncatingTail("short", width: 7) == "short")
    }

    func render(_ view: View) -> Surface {
        var s = Surface(size: view.bounds.size)
        _ = ViewRenderer.render(view, into: &s, drawnAt: nil)
        return s
    }

    @Test func aLabelOfSeveralLinesWrapsCentredAndTruncates() {
        let label = Label("お知らせ: 新しいメッセージが三件あります", frame: Rect(x: 0, y: 0, width: 12, height: 3))
        label.numberOfLines = 0
        label.lineBreakMode = .byTruncatingTail
        let rows = render(label).text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows == ["お知らせ:", "新しいメッセ", "ージが三件…"])
        // One line, centred in the three rows; the ellipsis takes the place of 新, which
        // would not leave it a column.
        label.numberOfLines = 1
        #expect(render(label).text == "\nお知らせ:…\n")
    }

    @Test func aLabelOfSeveralLinesTellsLayoutItsSizeAtItsPreferredWidth() {
        let label = Label("one two three four")
        label.numberOfLines = 0
        #expect(label.intrinsicContentSize == Size(width: 18, height: 1))
        label.preferredMaxLayoutWidth = 9
        #expect(label.intrinsicContentSize == Size(width: 7, height: 3))   // "one two", "three", "four"
        label.numberOfLines = 1
        #expect(label.intrinsicContentSize == Size(width: 18, height: 1))
    }
}
