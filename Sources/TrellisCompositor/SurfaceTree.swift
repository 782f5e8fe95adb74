import TrellisCanvas
import TrellisWire

/// The compositor's model of the screen: each controller's latest surface (its content,
/// from its frames) and where each child's surface sits in its container's (its
/// placement, from the container). The DESIGN's render-server split: content from the
/// controller, placement from the container that owns the viewport.
///
/// A frame is atomic: it applies whole or not at all. A frame for a surface of a new size
/// replaces the surface. The latest frame wins; nothing queues here.
///
/// Composition is incremental: when only frames came in since the last compose, only the
/// screen rows those frames' damage covers are composed again (whole rows, so no clip
/// edge cuts a wide character that a full compose would draw whole). A spinner turning
/// costs one row's cells, not every layer's. Anything else — a placement, an animation, a
/// surface changing size or going silent, a new screen size — composes everything.
/// `invalidate()` does too, for a caller that composes into a screen it did not compose
/// into last.
///
/// Where the layers go is worked out by the compose that composes everything, and kept:
/// only what composes everything can change it, so a compose of a few rows reuses it and
/// only looks up each layer's latest surface.
public struct SurfaceTree: Sendable {
    /// The surface at the top: the root controller's.
    public var root: ControllerID? { didSet { needsFullCompose = true } }
    public private(set) var surfaces: [ControllerID: Surface] = [:]
    private var placements: [ControllerID: (container: ControllerID, placement: Placement)] = [:]
    /// Each animated surface's latest animation and when it came (its delay runs from then).
    private var animations: [ControllerID: (animation: Animation, began: UInt64)] = [:]
    /// Children whose process stopped answering: shown as a placeholder in their viewport.
    public private(set) var unresponsive: Set<ControllerID> = []

    /// Per surface, the rectangles (its coordinates) its frames changed since the last compose.
    private var damaged: [ControllerID: [Rect]] = [:]
    private var needsFullCompose = true
    private var composedSize: Size?
    private var wasAnimating = false
    /// The layers of the last full compose, bottom first, without their content: the
    /// surfaces stay only in `surfaces`, so that applying a frame does not copy one.
    private var plan: [PlannedLayer] = []

    private struct PlannedLayer: Sendable {
        let id: ControllerID
        let frame: Rect
        let clip: Rect
        /// What an unresponsive child's viewport shows instead of its surface.
        let placeholder: Surface?
    }

    public init(root: ControllerID? = nil) {
        self.root = root
    }

    /// Applies a controller's frame. Throws (changing nothing) when the frame does not fit
    /// the surface it claims to update.
    public mutating func apply(_ frame: FrameUpdate, from id: ControllerID) throws {
        let size = Size(width: Int(frame.width), height: Int(frame.height))
        if let i = surfaces.index(forKey: id), surfaces.values[i].size == size {
            // Changed where the dictionary keeps it, referenced from nowhere else, so its
            // cells are not copied. A refused frame changes nothing: `Surface.apply` is
            // atomic. (Taking it out of the dictionary and keeping that copy to put back
            // on failure cost a copy of the whole surface for every frame.) Its damage is
            // `damaged`, from the frame: the surface's own would pile up, never taken.
            try surfaces.values[i].apply(frame, recordingDamage: false)
        } else {
            // A new surface or a new size: the old one stays until the frame is accepted.
            guard size.isSurfaceSize else {
                throw SurfaceError("frame \(frame.number) asks for a \(size) surface, more than \(Size.surfaceCells) cells")
            }
            var surface = Surface(size: size)
            try surface.apply(frame, recordingDamage: false)
            surfaces[id] = surface
            needsFullCompose = true
        }
        if unresponsive.remove(id) != nil { needsFullCompose = true }
        damaged[id, default: []].append(contentsOf: frame.damage.map { Rect($0.rect) })
    }

    /// A container says where its child's surface goes, in the container's surface.
    public mutating func place(_ placement: Placement, by container: ControllerID) {
        if let old = placements[placement.surface], old.container == container, old.placement == placement { return }
        placements[placement.surface] = (container, placement)
        needsFullCompose = true
    }

    /// Forgets the placements `container` made, but those of `kept`; true if any went.
    public mutating func dropPlacements(by container: ControllerID, except kept: Set<ControllerID>) -> Bool {
        let stale = placements.filter { $0.value.container == container && !kept.contains($0.key) }.map(\.key)
        for child in stale { placements[child] = nil }
        if !stale.isEmpty { needsFullCompose = true }
        return !stale.isEmpty
    }

    /// Composes everything next time: the screen composed into is not the last one.
    public mutating func invalidate() {
        needsFullCompose = true
    }

    /// A container animates its child's surface from one place to another; the
    /// compositor interpolates at its own frame rate, so a busy child cannot stall it.
    public mutating func animate(_ animation: Animation, by container: ControllerID, now: UInt64) {
        animations[animation.surface] = (animation, now)
        needsFullCompose = true
    }

    /// Who placed `surface`, if anyone did: only that container may animate it or send
    /// its frames as a layer of its own.
    public func container(of surface: ControllerID) -> ControllerID? {
        placements[surface]?.container
    }

    public mutating func markUnresponsive(_ id: ControllerID, _ flag: Bool) {
        let changed = flag ? unresponsive.insert(id).inserted : unresponsive.remove(id) != nil
        if changed { needsFullCompose = true }
    }

    /// Forgets a surface and what is placed in it.
    public mutating func remove(_ id: ControllerID) {
        needsFullCompose = true
        surfaces[id] = nil
        placements[id] = nil
        animations[id] = nil
        for (child, p) in placements where p.container == id { placements[child] = nil }
    }

    /// True while an animation still moves something at `now`.
    public func isAnimating(now: UInt64) -> Bool {
        animations.values.contains { now < $0.began + $0.animation.totalNanoseconds }
    }

    /// Composes the screen: the root surface, then each placed surface above its
    /// container, clipped by the container's clip and its own, in z order among siblings.
    /// Only the rows that changed since the last compose into this screen, when only
    /// frames came in (see the type's comment).
    public mutating func compose(into screen: inout Surface, now: UInt64 = 0) {
        let animating = isAnimating(now: now)
        let full = needsFullCompose || animating || wasAnimating || composedSize != screen.size
        // All over: the surfaces are at their placements from this compose on.
        if !animating, !animations.isEmpty { animations.removeAll() }
        defer {
            damaged.removeAll(keepingCapacity: true)
            needsFullCompose = false
            wasAnimating = animating
            composedSize = screen.size
        }
        let all = Rect(origin: .zero, size: screen.size)
        if full {
            plan.removeAll(keepingCapacity: true)
            guard let root, let top = surfaces[root] else {
                Composition.compose([], into: &screen)
                return
            }
            plan.append(PlannedLayer(id: root, frame: Rect(origin: .zero, size: top.size), clip: all, placeholder: nil))
            collect(in: root, origin: .zero, clip: all, now: now)
            Composition.compose(layers(), into: &screen)
            return
        }
        guard !damaged.isEmpty else { return }
        let layers = layers()
        // Screen rows the frames changed, through each layer's frame and clip.
        var dirty = [Bool](repeating: false, count: screen.size.height)
        for (layer, planned) in zip(layers, plan) {
            guard let rects = damaged[planned.id] else { continue }
            for r in rects {
                guard let shown = layer.screenRows(r.minY..<r.maxY)?.clamped(to: all.minY..<all.maxY) else { continue }
                for y in shown { dirty[y] = true }
            }
        }
        Composition.compose(layers, into: &screen, rows: dirty)
    }

    /// The plan's layers with each surface's latest content, z in plan order.
    private func layers() -> [Layer] {
        plan.enumerated().map { z, p in
            Layer(surface: p.placeholder ?? surfaces[p.id] ?? Surface(size: .zero), frame: p.frame, clip: p.clip, z: z)
        }
    }

    /// Adds the layers placed in `container`, and theirs in turn, to the plan.
    private mutating func collect(in container: ControllerID, origin: Point, clip: Rect, now: UInt64) {
        let children = placements.filter { $0.value.container == container && $0.value.placement.visible }
            .sorted { ($0.value.placement.z, $0.key) < ($1.value.placement.z, $1.key) }
        for (id, entry) in children {
            let p = entry.placement
            let frame = currentFrame(of: id, placed: Rect(p.frame), now: now).offsetBy(dx: origin.x, dy: origin.y)
            let layerClip = Rect(p.clip).offsetBy(dx: origin.x, dy: origin.y).intersection(clip).intersection(frame)
            let silent = unresponsive.contains(id)
            plan.append(PlannedLayer(
                id: id, frame: frame, clip: layerClip, placeholder: silent ? Self.placeholder(for: id, size: frame.size) : nil))
            if !silent { collect(in: id, origin: frame.origin, clip: layerClip, now: now) }
        }
    }

    /// Where an animated surface shows at `now` (the easing is `Animation.Curve`'s, the
    /// same as an in-process window's); its placement once the animation is over.
    private func currentFrame(of id: ControllerID, placed: Rect, now: UInt64) -> Rect {
        guard let (a, began) = animations[id] else { return placed }
        let elapsed = now > began ? now - began : 0
        guard elapsed < a.totalNanoseconds else { return placed }
        return Rect(a.frame(elapsedNanoseconds: elapsed))
    }

    /// What a crashed or silent child's viewport shows, as a browser shows a crashed frame.
    static func placeholder(for id: ControllerID, size: Size) -> Surface {
        var s = Surface(size: size)
        let style = Style(foreground: .indexed(15), background: .indexed(1))
        s.fill(Rect(origin: .zero, size: size), with: style)
        if size.width >= 2 && size.height >= 2 {
            s.drawBorder(Rect(origin: .zero, size: size), style: .single, colors: style)
        }
        let text = "✕ \(id) is not responding"
        s.put(text, at: Point(x: max(1, (size.width - CharacterWidth.columns(of: text)) / 2), y: size.height / 2), style: style)
        return s
    }
}
