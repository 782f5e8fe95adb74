import Testing
import TrellisCanvas

@Suite("Character widths")
struct CharacterWidthTests {
    @Test("ASCII is one column a character")
    func ascii() {
        #expect(CharacterWidth.columns(of: "Sub1") == 4)
        #expect(CharacterWidth.columns(of: "") == 0)
        #expect(CharacterWidth.columns(of: " ~") == 2)
    }

    @Test("kana, kanji and Hangul are two columns")
    func eastAsianWide() {
        #expect(CharacterWidth.columns(of: "あいう") == 6)
        #expect(CharacterWidth.columns(of: "漢字") == 4)
        #expect(CharacterWidth.columns(of: "한국어") == 6)
        #expect(CharacterWidth.columns(of: "カタカナ") == 8)
    }

    @Test("CJK punctuation and fullwidth forms are two columns")
    func punctuationAndFullwidth() {
        #expect(CharacterWidth.columns(of: "「」。、") == 8)
        #expect(CharacterWidth.columns(of: "\u{3000}") == 2)  // ideographic space
        #expect(CharacterWidth.columns(of: "ＡＢ１") == 6)
    }

    @Test("halfwidth katakana is one column a character")
    func halfwidthKatakana() {
        #expect(CharacterWidth.columns(of: "ﾊﾝｶｸ") == 4)
    }

    @Test("é is one column composed or decomposed")
    func combining() {
        #expect(CharacterWidth.columns(of: "\u{E9}") == 1)
        #expect(CharacterWidth.columns(of: "e\u{301}") == 1)
        #expect(CharacterWidth.columns(of: Unicode.Scalar(0x301)!) == 0)
        #expect(CharacterWidth.columns(of: "\u{1100}\u{1161}\u{11A8}") == 2)  // Hangul jamo, decomposed 각
    }

    @Test("emoji with emoji presentation are two columns")
    func emoji() {
        #expect(CharacterWidth.columns(of: "😀") == 2)
        #expect(CharacterWidth.columns(of: "🚀") == 2)
        #expect(CharacterWidth.columns(of: "⌚") == 2)
        #expect(CharacterWidth.columns(of: "🫠") == 2)  // Unicode 14
        #expect(CharacterWidth.columns(of: "🫨") == 2)  // Unicode 15, in a range joined across gaps
        #expect(CharacterWidth.columns(of: "👍🏽") == 4)  // the skin tone modifier is its own wide scalar
    }

    @Test("joiners, zero-width spaces and variation selectors take no column")
    func zeroWidth() {
        for scalar: UInt32 in [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0xFE0F, 0xE0100] {
            #expect(CharacterWidth.columns(of: Unicode.Scalar(scalar)!) == 0, "U+\(String(scalar, radix: 16))")
        }
        #expect(CharacterWidth.columns(of: "\u{AD}") == 1)  // soft hyphen: visible when a line breaks there
    }

    @Test("C0 and C1 controls take no column")
    func controls() {
        for scalar: UInt32 in [0x00, 0x07, 0x0A, 0x1B, 0x1F, 0x7F, 0x80, 0x9F] {
            #expect(CharacterWidth.columns(of: Unicode.Scalar(scalar)!) == 0)
        }
        #expect(CharacterWidth.columns(of: Unicode.Scalar(0xA0)!) == 1)
    }

    @Test("ambiguous box drawing and Latin, Greek, Cyrillic are one column")
    func narrow() {
        #expect(CharacterWidth.columns(of: "┌─┐│╭╮") == 6)
        #expect(CharacterWidth.columns(of: "Ωжß") == 3)
        #expect(CharacterWidth.columns(of: "\u{1F1EF}") == 1)  // regional indicator: Neutral in EastAsianWidth
    }

    @Test("box drawing, blocks and shapes to U+25FC are one column, the wide shapes just after them two")
    func boxDrawingAndShapes() {
        #expect((0x2500...0x25FC).allSatisfy { CharacterWidth.columns(of: Unicode.Scalar($0)!) == 1 })
        #expect(CharacterWidth.columns(of: "\u{25FD}\u{25FE}") == 4)  // ◽◾: emoji presentation, wide
        #expect(CharacterWidth.columns(of: "\u{23F3}") == 2)  // ⏳, before the range
    }
}
