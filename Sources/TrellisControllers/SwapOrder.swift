import TrellisWire

/// Which of the two children of a swap — one appearing, one disappearing — hears each
/// phase first. UIKit's containers differ here, and apps rely on it (docs/LIFECYCLE.md,
/// "The order of a swap").
struct SwapOrder: Sendable {
    /// The appearing child gets `viewWillAppear` before the other's `viewWillDisappear`.
    var appearingWillFirst: Bool
    /// The appearing child gets `viewDidAppear` before the other's `viewDidDisappear`.
    var appearingDidFirst: Bool

    /// `transition(from:to:…)`'s, where UIKit documents none: the new child first in both
    /// phases, the order seed 003's swap has always had (S3-4).
    static let appearingFirst = SwapOrder(appearingWillFirst: true, appearingDidFirst: true)
    /// A navigation controller's push and pop: the covered (or popped) controller first
    /// in both phases.
    static let disappearingFirst = SwapOrder(appearingWillFirst: false, appearingDidFirst: false)
    /// A tab bar controller's switch: the new tab's will first, the old tab's did first.
    static let tabSwitch = SwapOrder(appearingWillFirst: true, appearingDidFirst: false)
}

extension ViewController {
    /// Sends one phase of a swap to its two children, in `order`.
    func sendSwapPhase(will: Bool, appearing: ViewController, disappearing: ViewController, animated: Bool, order: SwapOrder) {
        let appear = Message.appearance(Appearance(will ? .willAppear : .didAppear, animated: animated))
        let disappear = Message.appearance(Appearance(will ? .willDisappear : .didDisappear, animated: animated))
        if will ? order.appearingWillFirst : order.appearingDidFirst {
            send(appear, to: appearing)
            send(disappear, to: disappearing)
        } else {
            send(disappear, to: disappearing)
            send(appear, to: appearing)
        }
    }
}
