import Foundation

/// The floor: what an undo stack cannot go below in Swift. Registering allocates a closure
/// (capturing its target and an amount, as an undo action does) and appends it to an
/// array; undoing pops one and calls it. No grouping, no redo, no bookkeeping: the issue
/// asks UndoKit's W1 to stay within 2× of these two numbers. Three more phases price what
/// weak targets (spec H3) add: `weak_call` (load a weak reference, call, release) and
/// `command_undo`/`command_redo` (a command step moved between two stacks through its
/// weakly held model: the least a command undo or redo does in any layout).
enum FloorWorkload {
    final class Target {
        var value = 0

        /// Not inlined, so that the loop below calls through the loaded reference, as a step
        /// calls its handler.
        @inline(never)
        func add(_ amount: Int) {
            value += amount
        }
    }

    /// How a step reaches its target: weakly (spec H3, the manager never keeps a target
    /// alive).
    final class WeakReference {
        weak var object: Target?

        init(_ object: Target) {
            self.object = object
        }
    }

    /// The least a command step can be under spec H3: its model, held weakly, and which of
    /// the command's two methods runs next.
    final class CommandStep {
        weak var model: Target?
        var runsExecute = false

        init(_ model: Target) {
            self.model = model
        }

        /// Runs the command (add or subtract `amount`) if the model is still there, and
        /// flips the direction for the next run.
        @inline(__always)
        func run(_ amount: Int) {
            if let model {
                model.add(runsExecute ? amount : -amount)
                runsExecute.toggle()
            }
        }
    }

    static func floor(n: Int) throws(BenchmarkFailure) -> RepetitionResult {
        var result = RepetitionResult()
        let target = Target()
        // Derived from the input so the optimizer cannot fold the captured amount away and
        // skip the context allocation that a real action pays for.
        let amount = n > 0 ? 1 : -1
        var stack: [() -> Void] = []

        let t0 = Measurement.now()
        for _ in 0..<n {
            target.value += amount
            stack.append { [target] in target.value -= amount }
        }
        let t1 = Measurement.now()
        try check(target.value == n * amount && stack.count == n, "floor register: value \(target.value)")

        let t2 = Measurement.now()
        while let action = stack.popLast() { action() }
        let t3 = Measurement.now()
        try check(target.value == 0, "floor undo: value \(target.value)")

        // What spec H3 adds to every step of any layout: load the weak reference to the
        // target (a strong retain through the object's side table, since a weakly referenced
        // object has one) and release it after the call. Qt holds raw pointers and pays none.
        let reference = WeakReference(target)
        let t4 = Measurement.now()
        for _ in 0..<n {
            if let object = reference.object {
                object.add(amount)
            }
        }
        let t5 = Measurement.now()
        try check(target.value == n * amount, "floor weak_call: value \(target.value)")

        // What any layout does per command undo and redo under spec H3, with none of Apple's
        // grouping or bookkeeping: take a step off one stack, load its model weakly, run the
        // command, release the model, put the step on the other stack. (Only the moves are
        // timed; the steps are made beforehand.) If this is not faster than Qt's undo, no
        // layout of UndoKit's command API can be.
        var undoSteps: [CommandStep] = []
        undoSteps.reserveCapacity(n)
        var redoSteps: [CommandStep] = []
        redoSteps.reserveCapacity(n)
        for _ in 0..<n {
            undoSteps.append(CommandStep(target))
        }
        let before = target.value
        let t6 = Measurement.now()
        while let step = undoSteps.popLast() {
            step.run(amount)
            redoSteps.append(step)
        }
        let t7 = Measurement.now()
        try check(target.value == before - n * amount && redoSteps.count == n,
                  "floor command_undo: value \(target.value)")
        let t8 = Measurement.now()
        while let step = redoSteps.popLast() {
            step.run(amount)
            undoSteps.append(step)
        }
        let t9 = Measurement.now()
        try check(target.value == before && undoSteps.count == n, "floor command_redo: value \(target.value)")

        result.record("register", operations: n, nanoseconds: t1 - t0)
        result.record("undo", operations: n, nanoseconds: t3 - t2)
        result.record("weak_call", operations: n, nanoseconds: t5 - t4)
        result.record("command_undo", operations: n, nanoseconds: t7 - t6)
        result.record("command_redo", operations: n, nanoseconds: t9 - t8)
        return result
    }
}
