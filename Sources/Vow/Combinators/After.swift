import Dispatch

/// A guarantee that settles after `seconds`.
///
/// ```swift
/// after(seconds: 1.5).done { retry() }
/// ```
///
/// The timer runs on a global queue, so the guarantee settles even when the main queue is never
/// drained (a command-line tool, a test on a background thread); chain with `on:` to choose where
/// the next handler runs. A negative or zero delay settles as soon as the timer can fire.
public func after(seconds: Double) -> Guarantee<Void> {
    after(deadline: .now() + seconds)
}

/// A guarantee that settles after `interval`, from a global queue.
///
/// ```swift
/// after(.milliseconds(500)).done { hideBanner() }
/// ```
public func after(_ interval: DispatchTimeInterval) -> Guarantee<Void> {
    after(deadline: .now() + interval)
}

func after(deadline: DispatchTime) -> Guarantee<Void> {
    let timer = Guarantee<Void>(pendingAt: nil)
    DispatchQueue.global().asyncAfter(deadline: deadline) {
        timer.seal(())
    }
    return timer
}
