import Testing
import TrellisCanvas
import TrellisControllers
import TrellisSeeds
import TrellisViews
import TrellisWire

// The demo of issue 5, all in one process: DemoTabs with every seed's real classes
// registered, driven by what the screen shows. Scenario ids are in
// /work/shared/SCENARIOS.md.

@MainActor
@Suite struct DemoTests {
    let registry = ControllerRegistry()
    let clock = ManualClock()

    func make(_ size: Size = Size(width: 80, height: 24)) -> (Window, DemoTabs) {
        SeedControllers.register(in: registry)
        let window = Window(size: size)
        clock.install(on: window)
        let demo = registry.make("DemoTabs", id: "Demo") as! DemoTabs
        window.rootViewController = demo
        window.makeKeyAndVisible()
        return (window, demo)
    }

    /// Resizes and lays out, as the next frame would.
    func resize(_ window: Window, to size: Size) {
        window.resize(to: size)
        _ = window.compose()
    }

    /// The sizes every layout must hold at, in the order a user might resize through.
    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 60, height: 20), Size(width: 80, height: 24)]

    @Test func everySeedHasATabMadeByName() {
        let (window, demo) = make()
        #expect(demo.viewControllers.map(\.id.rawValue) == ["Seed000", "Seed001", "Seed002", "Seed003", "Seed004", "DemoKeys"])
        let bar = window.row(23)
        for tab in DemoTabs.tabs { #expect(bar.contains(tab.title), "tab bar: \(bar)") }
        // Each tab was asked of the registry: a host that registers a proxy under the
        // name gets the proxy in the tab instead (where process placement is decided).
        let proxies = ControllerRegistry()
        SeedControllers.register(in: proxies)
        let stand = ViewController(id: "Seed002")
        proxies.register("Seed002") { _ in stand }
        #expect(DemoTabs(registry: proxies).viewControllers[2] === stand)
    }

    @Test func functionKeysSwitchTabsAndAreListedForAFooter() {
        // Issue 22: the demo's tabs switch with keys, and the active commands say which.
        let (window, demo) = make()
        #expect(window.key(.f3) == .handled)
        #expect(demo.selectedIndex == 2)
        #expect(demo.viewControllers[2].viewIfLoaded?.superview != nil)
        window.key(.f1)
        #expect(demo.selectedIndex == 0)
        #expect(window.activeKeyCommands.prefix(2).map { "\($0.key) \($0.title)" } == ["F1 circle", "F2 embed"])
    }

    // MARK: Seed 000

    @Test func s0_1_s0_3_theCircleIsCentredAndTapsGoToWhoeverIsUnderThem() throws {
        let (window, demo) = make()
        #expect(window.tap("000 circle"))
        let seed = try #require(demo.viewControllers[0] as? Seed000)
        let circle = try #require(seed.circle)
        #expect(circle.view is CircleView)  // S0-2: the child's own view class

        for size in Self.sizes {
            resize(window, to: size)
            let content = Size(width: size.width, height: size.height - 2)  // above the footer and the tab bar
            let side = min(content.width / 2, content.height) / 2
            #expect(circle.view.frame == Rect(x: (content.width - 2 * side) / 2, y: (content.height - side) / 2, width: 2 * side, height: side), "at \(size)")
            let screen = window.compose()
            let centre = Point(x: content.width / 2, y: content.height / 2)
            #expect(screen.cell(at: centre)?.background == .indexed(1), "at \(size)")
            #expect(screen.cell(at: circle.view.frame.origin)?.background != .indexed(1), "a corner is outside the circle at \(size)")
        }

        // S0-3: a tap on the circle is the child's; one on the background the container's.
        #expect(window.tap("tap me"))
        #expect(window.shows("child ×1"))
        #expect(!window.shows("Touches ended on container"))
        #expect(window.tap(at: Point(x: 1, y: 5)))
        #expect(window.shows("Touches ended on container"))
        #expect(window.shows("child ×1"))
    }

    /// Issue 23: the circle's tab presents an alert and a sheet (docs/LIFECYCLE.md, "Modal
    /// presentation", "Alerts"); both show centred over the tab, take the input while shown,
    /// and go when chosen or closed.
    @Test func theCircleTabPresentsAnAlertAndASheet() throws {
        let (window, demo) = make()
        func settle() {
            clock.seconds += 0.3
            window.tick()
        }
        #expect(window.tap("tap me"))
        #expect(window.shows("child ×1"))
        #expect(window.tap("Alert…"))
        settle()
        #expect(window.shows("Reset the count?") && window.shows("Cancel") && window.shows("Reset"))
        #expect(window.shows("S0-1 the container's view lays the circle out"), "the tab stays beneath")
        // Beneath the alert, the tab bar takes no taps.
        window.tap("001 embed")
        #expect(demo.selectedIndex == 0)
        // Escape is the cancel action.
        #expect(window.key(.escape) == .handled)
        settle()
        #expect(!window.shows("Reset the count?") && window.shows("Alert: cancelled") && window.shows("child ×1"))
        // Again, and this time Reset, by a click.
        #expect(window.tap("Alert…"))
        settle()
        #expect(window.tap("Reset", occurrence: 1))  // the button, under the title
        settle()
        #expect(window.shows("Alert: reset") && window.shows("tap me"))
        // The sheet: centred over the tab, closed by its button.
        #expect(window.tap("Sheet…"))
        settle()
        let corner = try #require(window.point(of: "A form sheet"))
        #expect(abs(corner.x - 18) <= 2, "centred in 80 columns at 44 wide: \(corner)")
        #expect(window.shows("Shown over the tab, which stays beneath."))
        #expect(window.tap("Close"))
        settle()
        #expect(!window.shows("A form sheet") && window.shows("Sheet: closed"))
        #expect(window.presentedViewControllers.isEmpty)
    }

    // MARK: Seed 001

    @Test func s1_1_s1_2_mainLaysOutItsContainerViewAndEmbedsSub1() throws {
        let (window, demo) = make()
        #expect(window.tap("001 embed"))
        let main = try #require((demo.viewControllers[1] as? Seed001)?.main)
        for size in Self.sizes {
            resize(window, to: size)
            // Main's view is below the navigation bar and above the footer and the tab bar.
            #expect(main.view.frame.size == Size(width: size.width, height: size.height - 3), "at \(size)")
            let h = main.view.bounds.height
            let third = Int((Double(h) / 3).rounded())
            #expect(main.containerView.frame == Rect(x: 2, y: h - 3 - third, width: size.width - 4, height: third), "at \(size)")
            #expect(main.sub1.view.frame == main.containerView.bounds.inset(by: EdgeInsets(all: 1)), "at \(size)")
            #expect(window.shows("Sub1"), "at \(size)")
        }
    }

    @Test(arguments: SwitchingStrategy.allCases)
    func s1_4_changeSwitchesSub1AndSub2ByEachStrategy(_ strategy: SwitchingStrategy) throws {
        let (window, demo) = make()
        #expect(window.tap("001 embed"))
        let main = try #require((demo.viewControllers[1] as? Seed001)?.main)
        #expect(window.tap(strategy.buttonTitle))
        #expect(main.strategy == strategy)
        #expect(window.shows(strategy.summary))
        #expect(main.children.count == (strategy == .swap ? 1 : 2))
        for expected in ["Sub2", "Sub1", "Sub2"] {
            #expect(window.tap("change"))
            #expect(window.shows(expected), "\(strategy): \(expected)")
            #expect(!window.shows(expected == "Sub1" ? "Sub2" : "Sub1"), "\(strategy): only \(expected) shows")
        }
        // What each strategy keeps: both children for (a) and (b), one for (c).
        #expect(main.children.map(\.id.rawValue) == (strategy == .swap ? ["Sub2"] : ["Sub1", "Sub2"]))
        // S1-5: every embedded child is appeared with its parent.
        #expect(main.children.allSatisfy { $0.appearanceState == .appeared })
    }

    @Test func s1_4_changingStrategyKeepsWhatIsShown() throws {
        let (window, demo) = make()
        #expect(window.tap("001 embed"))
        let main = try #require((demo.viewControllers[1] as? Seed001)?.main)
        #expect(window.tap("change"))
        for strategy in [SwitchingStrategy.bringToFront, .swap, .hide, .swap] {
            #expect(window.tap(strategy.buttonTitle))
            #expect(window.shows("Sub2") && !window.shows("Sub1"), "after choosing \(strategy)")
        }
        #expect(main.children.map(\.id.rawValue) == ["Sub2"])
    }

    @Test func s1_3_nextButtonsPushDetailsAndBackPops() throws {
        let (window, demo) = make()
        #expect(window.tap("001 embed"))
        let nav = try #require(demo.viewControllers[1] as? Seed001)
        // Main's own next (the first on screen), then Sub1's (inside the container view).
        #expect(window.tap("next"))
        clock.finishAnimations(in: window)
        #expect(nav.topViewController?.id == "MainDetail")
        #expect(window.shows("MainDetail: pushed by Main's next"))
        #expect(window.tap("‹ Back"))
        clock.finishAnimations(in: window)
        #expect(nav.topViewController === nav.main)

        #expect(window.tap("next", occurrence: 1))
        clock.finishAnimations(in: window)
        #expect(nav.topViewController?.id == "Sub1Detail")
        #expect(window.shows("Sub1Detail: pushed by Sub1's next"))
        // A resize while a detail is shown, then back: Main is laid out at the new size.
        window.resize(to: Size(width: 120, height: 40))
        #expect(window.tap("‹ Back"))
        clock.finishAnimations(in: window)
        #expect(nav.main?.view.frame.size == Size(width: 120, height: 37))
        #expect(window.shows("Sub1"))
    }

    // MARK: Seed 002

    @Test func s2_1_s2_2_fileLoadedViewsNestAndShowTheirCreationOrder() throws {
        let (window, demo) = make()
        #expect(window.tap("002 files"))
        let seed = try #require(demo.viewControllers[2] as? Seed002)
        let sub = try #require(seed.sub as? Seed002Sub)
        #expect(seed.shown === sub && sub.parent === seed)
        let button = try #require(sub.customButton)
        let extend = try #require(button.subviews.first as? ExtendLabel)
        #expect((extend.subviews.first as? Label)?.text == "ボタンです")
        #expect(sub.creationOrder == [
            "CustomButton.init", "ExtendLabel.init", "ExtendLabel.awakeFromFile", "CustomButton.awakeFromFile", "Sub.viewDidLoad",
        ])
        for size in Self.sizes {
            resize(window, to: size)
            #expect(window.shows("ボタンです"), "at \(size)")
            #expect(window.shows("5. Sub.viewDidLoad"), "at \(size)")
            // The button stays centred in the child.
            let frame = button.frame
            #expect(abs(frame.minX - (sub.view.bounds.width - frame.maxX)) <= 1, "at \(size)")
        }
    }

    @Test func s2_4_theButtonInsideTheChildAsksTheContainerToSwap() throws {
        let (window, demo) = make()
        #expect(window.tap("002 files"))
        let seed = try #require(demo.viewControllers[2] as? Seed002)
        #expect(window.tap("ボタンです"))
        #expect(seed.shown === seed.other)
        #expect(seed.children.map(\.id.rawValue) == ["Other"])
        #expect(window.shows("Other: swapped in"))
        #expect(!window.shows("ボタンです"))
        #expect(window.tap("swap back"))
        #expect(seed.shown === seed.sub)
        #expect(window.shows("ボタンです"))
    }

    // MARK: Seed 003

    @Test func s3_4_cycleSlidesTheNextCardUpAndRoundAgain() throws {
        let (window, demo) = make()
        #expect(window.tap("003 cycle"))
        let seed = try #require(demo.viewControllers[3] as? Seed003)
        #expect(window.shows("showing First"))
        for (from, to) in [("First", "Second"), ("Second", "Third"), ("Third", "First")] {
            let old = seed.current
            #expect(window.tap("▲ cycle"))
            let new = seed.cards.first { $0.id.rawValue == to }!
            // Halfway: the new card has come half-way up from below the stage.
            clock.seconds += 0.125
            let stageHeight = seed.stage.bounds.height
            #expect(abs(window.animator.presentationFrame(of: new.view).minY - stageHeight / 2) <= 1)
            #expect(old.parent === seed && new.parent === seed)
            clock.finishAnimations(in: window)
            #expect(seed.current === new, "\(from) → \(to)")
            #expect(old.parent == nil)
            #expect(window.shows("showing \(to)"))
            #expect(new.view.frame == seed.stage.bounds)
        }
        // S3-2/S3-3: a card heard its half of the containment calls, in order.
        let second = try #require(seed.cards[1] as? Seed003Card)
        #expect(second.heard.prefix(7) == [
            "willMove(toParent: Seed003)", "viewDidLoad", "viewWillAppear", "viewDidAppear",
            "didMove(toParent: Seed003)", "willMove(toParent: nil)", "viewWillDisappear",
        ])
    }

    @Test func s3_4_theStageFollowsAResize() throws {
        let (window, demo) = make()
        #expect(window.tap("003 cycle"))
        let seed = try #require(demo.viewControllers[3] as? Seed003)
        for size in Self.sizes {
            resize(window, to: size)
            #expect(seed.stage.frame == Rect(x: 2, y: 3, width: size.width - 4, height: size.height - 2 - 4), "at \(size)")
            #expect(seed.current.view.frame == seed.stage.bounds, "at \(size)")
            #expect(window.shows(seed.current.id.rawValue))
        }
    }

    // MARK: Seed 004

    @Test func s4_1_s4_4_fixedPagesTurnByDragAndKeepTheirPageOnResize() throws {
        let (window, demo) = make()
        #expect(window.tap("004 paging"))
        let fixed = try #require((demo.viewControllers[4] as? Seed004)?.viewControllers[0] as? ScrollPaging)
        #expect(window.shows("page 0"))
        #expect(fixed.scroll.contentSize.width == 4 * fixed.scroll.bounds.width)
        window.drag(from: Point(x: 60, y: 10), to: Point(x: 20, y: 10))
        #expect(fixed.scroll.currentPage == 1)
        #expect(window.shows("page 1") && !window.shows("page 0"))
        #expect(fixed.pageControl.currentPage == 1)
        for size in Self.sizes {
            resize(window, to: size)
            #expect(fixed.scroll.contentOffset.x == fixed.scroll.bounds.width, "S4-4 at \(size)")
            #expect(window.shows("page 1"), "at \(size)")
        }
    }

    @Test func s4_2_threeDataItemsShowThreeOfFourPages() throws {
        let (window, demo) = make()
        #expect(window.tap("004 paging"))
        #expect(window.tap("S4-2 bounded"))
        let bounded = try #require((demo.viewControllers[4] as? Seed004)?.viewControllers[1] as? ScrollPaging)
        _ = window.compose()
        #expect(bounded.pages.map(\.frame.width) == [80, 80, 80, 0])
        for _ in 0..<5 { window.drag(from: Point(x: 70, y: 10), to: Point(x: 10, y: 10)) }
        #expect(bounded.scroll.currentPage == 2)
        #expect(window.shows("page 2"))
        #expect(bounded.pageControl.numberOfPages == 3)
    }

    @Test func s4_3_thePageViewControllerTurnsPagesWithItsPageControlInStep() throws {
        let (window, demo) = make()
        #expect(window.tap("004 paging"))
        #expect(window.tap("S4-3 pager"))
        let pager = try #require((demo.viewControllers[4] as? Seed004)?.viewControllers[2] as? PagerContainer)
        #expect(window.shows("Page 0 of 10"))
        for expected in 1...3 {
            window.drag(from: Point(x: 60, y: 10), to: Point(x: 20, y: 10))
            clock.finishAnimations(in: window)
            #expect(window.shows("Page \(expected) of 10"))
            #expect(pager.pageControl.currentPage == expected)
        }
        // Only the current page and its neighbours are children or kept.
        #expect(pager.pager.children.count == 1)
        // The dots turn pages too: a tap left of the current one.
        let dot = try #require(window.point(of: "●"))
        #expect(window.tap(at: Point(x: dot.x - 2, y: dot.y)))
        clock.finishAnimations(in: window)
        #expect(window.shows("Page 2 of 10"))
        // S4-4: the page stays through resizes.
        for size in Self.sizes {
            resize(window, to: size)
            #expect(window.shows("Page 2 of 10"), "at \(size)")
            #expect(pager.pager.currentPage?.view.frame.size == Size(width: size.width, height: size.height - 3 - 3), "at \(size)")
        }
    }

    @Test func s4_4_aResizeWhileAnotherTabIsShownKeepsThePage() throws {
        let (window, demo) = make()
        #expect(window.tap("004 paging"))
        let fixed = try #require((demo.viewControllers[4] as? Seed004)?.viewControllers[0] as? ScrollPaging)
        _ = window.compose()
        fixed.show(page: 2)
        #expect(window.shows("page 2"))
        #expect(window.tap("000 circle"))
        resize(window, to: Size(width: 120, height: 40))
        #expect(window.tap("004 paging"))
        _ = window.compose()
        #expect(fixed.scroll.bounds.width == 120)
        #expect(fixed.scroll.contentOffset.x == 240)
        #expect(window.shows("page 2"))
    }

    // MARK: The whole demo at every size

    @Test func everyTabShowsItsSeedAtEverySize() {
        let (window, _) = make()
        let expected = ["000 circle": "tap me", "001 embed": "Sub1", "002 files": "ボタンです", "003 cycle": "showing First", "004 paging": "page 0", "005 keys": "304 characters"]
        // The sizes the other tests check in detail, then odd ones in between and beyond.
        let odd = [Size(width: 61, height: 21), Size(width: 99, height: 31), Size(width: 200, height: 60), Size(width: 60, height: 20)]
        for size in Self.sizes + odd {
            resize(window, to: size)
            for tab in DemoTabs.tabs {
                #expect(window.tap(tab.title), "\(tab.title) at \(size)")
                #expect(window.shows(expected[tab.title]!), "\(tab.title) at \(size)")
                // The tab bar stays on the last row.
                #expect(window.row(size.height - 1).contains(tab.title), "at \(size)")
            }
        }
    }

    /// At the smallest size the demo supports, every label in view is wide enough for its
    /// text: nothing a newcomer should read is cut.
    @Test func noTextIsCutAt60x20() {
        let (window, _) = make(Size(width: 60, height: 20))
        func cut(in view: View) -> [String] {
            guard !view.isHidden else { return [] }
            var out: [String] = []
            if let label = view as? Label, label.frame.width > 0, label.frame.width < CharacterWidth.columns(of: label.text) {
                out.append("'\(label.text)' in \(label.frame.width) columns")
            }
            for sub in view.subviews { out += cut(in: sub) }
            return out
        }
        for tab in DemoTabs.tabs.map(\.title) + ["004 paging"] + Seed004.styles.map(\.title) {
            #expect(window.tap(tab), "\(tab)")
            _ = window.compose()
            #expect(cut(in: window.rootView) == [], "\(tab)")
        }
        #expect(window.tap("001 embed") && window.tap("next"))
        clock.finishAnimations(in: window)
        #expect(cut(in: window.rootView) == [], "MainDetail")
    }
}
