import Testing
@testable import TrellisLayout

func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }

@Suite("The Cassowary solver")
struct SolverTests {
    @Test("required equalities are solved exactly")
    func requiredEqualities() throws {
        let x = Variable("x"), y = Variable("y")
        let s = Solver()
        try s.add(x == 10.0)
        try s.add(y == x + 5)
        s.updateVariables()
        #expect(near(x.value, 10) && near(y.value, 15))
    }

    @Test("an optional preference is met as far as required bounds allow")
    func optionalWithinBounds() throws {
        let w = Variable("width")
        let s = Solver()
        try s.add(w >= 10.0)
        try s.add(w <= 30.0)
        try s.add((w == 50.0).at(250))
        s.updateVariables()
        #expect(near(w.value, 30))
    }

    @Test("between conflicting optional constraints the higher priority wins")
    func higherPriorityWins() throws {
        let x = Variable("x")
        let s = Solver()
        try s.add((x == 20.0).at(250))
        try s.add((x == 10.0).at(750))
        s.updateVariables()
        #expect(near(x.value, 10))
    }

    @Test("priority weights grow tenfold per 100 levels: one at p outweighs nine at p − 100, not eleven")
    func priorityWeightRule() throws {
        for (count, expected) in [(9, 100.0), (11, 0.0)] {
            let x = Variable("x")
            let s = Solver()
            try s.add((x == 100.0).at(500))
            for _ in 0..<count { try s.add((x == 0.0).at(400)) }
            s.updateVariables()
            #expect(near(x.value, expected), "\(count) constraints at 400")
        }
    }

    @Test("a contradicting required constraint is refused and leaves the solver as it was")
    func unsatisfiableIsRefusedAtomically() throws {
        let x = Variable("x"), y = Variable("y")
        let s = Solver()
        try s.add(x == 10.0)
        try s.add(y == x * 2)
        #expect(throws: Solver.Failure.self) { try s.add((x == 20.0).labelled("conflict")) }
        #expect(throws: Solver.Failure.self) { try s.add(y <= 5.0) }
        try s.add(y >= 5.0)
        s.updateVariables()
        #expect(near(x.value, 10) && near(y.value, 20))
        #expect(s.constraintCount == 3)
    }

    @Test("removing a constraint re-solves from what remains")
    func removal() throws {
        let x = Variable("x")
        let s = Solver()
        let strong = (x == 10.0).at(750)
        try s.add((x == 40.0).at(250))
        try s.add(strong)
        s.updateVariables()
        #expect(near(x.value, 10))
        try s.remove(strong)
        s.updateVariables()
        #expect(near(x.value, 40))
        #expect(throws: Solver.Failure.unknown(strong.description)) { try s.remove(strong) }
    }

    @Test("adding the same constraint twice is an error")
    func duplicate() throws {
        let x = Variable("x")
        let s = Solver()
        let c = x >= 1.0
        try s.add(c)
        #expect(throws: Solver.Failure.duplicate(c.description)) { try s.add(c) }
    }

    @Test("suggested values follow edits within required bounds, incrementally")
    func editVariables() throws {
        let w = Variable("w"), half = Variable("half")
        let s = Solver()
        try s.add(w <= 100.0)
        try s.add(w >= 0.0)
        try s.add(half == w * 0.5)
        try s.addEditVariable(w, priority: 999)
        for (suggested, expected) in [(50.0, 50.0), (150, 100), (20, 20), (-5, 0), (80, 80)] {
            try s.suggest(w, suggested)
            s.updateVariables()
            #expect(near(w.value, expected), "suggested \(suggested)")
            #expect(near(half.value, expected / 2))
        }
        #expect(throws: Solver.Failure.requiredEditVariable("half")) { try s.addEditVariable(half, priority: .required) }
        try s.removeEditVariable(w)
        #expect(throws: Solver.Failure.unknownEditVariable("w")) { try s.suggest(w, 1) }
    }

    @Test("S1-1 arithmetic: a container pinned 2 cells in, 3 above the bottom, a third of the height, across resizes")
    func containerPinnedInsideRootAcrossResizes() throws {
        let rootW = Variable("root.width"), rootH = Variable("root.height")
        let left = Variable("c.leading"), right = Variable("c.trailing")
        let top = Variable("c.top"), bottom = Variable("c.bottom")
        let s = Solver()
        try s.add(left == 2.0)
        try s.add(right == rootW - 2)
        try s.add(bottom == rootH - 3)
        try s.add(bottom - top == rootH * (1.0 / 3))
        try s.addEditVariable(rootW, priority: 999)
        try s.addEditVariable(rootH, priority: 999)
        for (w, h) in [(80.0, 24.0), (200, 60), (40, 12)] {
            try s.suggest(rootW, w)
            try s.suggest(rootH, h)
            s.updateVariables()
            #expect(near(left.value, 2) && near(right.value, w - 2))
            #expect(near(bottom.value, h - 3) && near(bottom.value - top.value, h / 3))
        }
    }

    @Test("S4-2 arithmetic: width-equals-scroll-view at lowered priority, extra pages forced to 0, content = 3 pages of 4")
    func boundedPagesCollapseExtraPages() throws {
        let scroll = Variable("scroll.width")
        let pages = (0..<4).map { Variable("page\($0).width") }
        let content = Variable("content.width")
        let s = Solver()
        try s.add(scroll == 60.0)
        try s.add(content == pages.dropFirst().reduce(pages[0].expression) { $0 + $1 })
        for (i, page) in pages.enumerated() {
            try s.add((page == scroll).at(999))
            try s.add(page >= 0.0)
            if i >= 3 { try s.add(page == 0.0) }  // no data for the fourth page
        }
        s.updateVariables()
        #expect(pages.map(\.value).map { $0.rounded() } == [60, 60, 60, 0])
        #expect(near(content.value, 180))
    }

    @Test("the same constraints always give the same answer, whatever the hashing order")
    func determinism() throws {
        func solve() throws -> [Double] {
            let xs = (0..<6).map { Variable("x\($0)") }
            let s = Solver()
            // Under-determined on purpose: many optimal solutions exist.
            try s.add(xs.dropFirst().reduce(xs[0].expression) { $0 + $1 } == 60.0)
            for x in xs { try s.add(x >= 0.0) }
            s.updateVariables()
            return xs.map(\.value)
        }
        let first = try solve()
        for _ in 0..<20 { #expect(try solve() == first) }
    }

    @Test("a grid of 1,000 constraints solves, and re-solves after one constant changes")
    func largeGrid() throws {
        let s = Solver()
        let total = Variable("total.width")
        try s.addEditVariable(total, priority: 999)
        var rows: [[(Variable, Variable)]] = []
        for r in 0..<20 {
            var row: [(Variable, Variable)] = []
            for c in 0..<10 {
                let left = Variable("v\(r).\(c).left"), width = Variable("v\(r).\(c).width")
                if c == 0 { try s.add(left == 0.0) } else { try s.add(left == row[c - 1].0 + row[c - 1].1 + 1) }
                try s.add(width >= 1.0)
                try s.add((width == rows.first?[c].1 ?? width).at(750))
                if c == 9 { try s.add(left + width == total) }
                row.append((left, width))
            }
            rows.append(row)
        }
        #expect(s.constraintCount >= 600)
        for (w, expectedWidth) in [(109.0, 10.0), (209, 20)] {
            try s.suggest(total, w)
            s.updateVariables()
            let widths = rows.flatMap { $0.map(\.1.value) }
            #expect(near(widths.reduce(0, +) / Double(widths.count), expectedWidth))
            #expect(rows.allSatisfy { near($0[9].0.value + $0[9].1.value, w) })
        }
    }
}
