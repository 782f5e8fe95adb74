import TrellisWire
@testable import TrellisCanvas

// Shared by the canvas tests: reading cells back as characters.

extension Surface {
    /// The character in cell (x, y), "·" for a continuation cell, so expectations can spell rows.
    func glyph(_ x: Int, _ y: Int) -> String {
        let scalar = self[x, y].scalar
        if scalar == Cell.continuation { return "·" }
        return String(Character(Unicode.Scalar(scalar)!))
    }

    /// Row y spelt cell by cell with `glyph`.
    func row(_ y: Int) -> String {
        (0..<size.width).map { glyph($0, y) }.joined()
    }

    /// Checks the invariant every surface keeps: continuation cells only right after a wide
    /// character, and every wide character followed by one.
    var wideCharactersAreWhole: Bool {
        for y in 0..<size.height {
            for x in 0..<size.width {
                let scalar = self[x, y].scalar
                if scalar == Cell.continuation {
                    guard x > 0, CharacterWidth.columns(of: Unicode.Scalar(self[x - 1, y].scalar)!) == 2 else {
                        return false
                    }
                } else if CharacterWidth.columns(of: Unicode.Scalar(scalar)!) == 2 {
                    guard x + 1 < size.width, self[x + 1, y].scalar == Cell.continuation else { return false }
                }
            }
        }
        return true
    }
}

let red = Style(foreground: .indexed(1))
let blue = Style(background: .indexed(4))
