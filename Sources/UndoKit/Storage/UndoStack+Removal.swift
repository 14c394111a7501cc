extension UndoStack {
    /// Removes every action on `target`, then every group that became empty because of it,
    /// recursively outward (spec R33). Groups that were empty already, and open groups, stay.
    ///
    /// - Returns: whether anything was removed.
    @discardableResult
    mutating func removeActions(withTarget target: ObjectIdentifier) -> Bool {
        guard containsAction(on: target) else { return false }
        // One in-place compaction pass: keepers are swapped down to `write`, so nothing is
        // retained or released except what is removed.
        struct Frame {
            var begin: Int
            var hadContent = false
        }
        var frames: [Frame] = []
        var removedTopLevel = 0
        let liveEnd = entries.count
        let start = head
        var write = start
        entries.withUnsafeMutableBufferPointer { buffer in
            for read in start..<liveEnd {
                switch buffer[read] {
                case .begin:
                    if !frames.isEmpty { frames[frames.count - 1].hadContent = true }
                    frames.append(Frame(begin: write))
                    buffer.swapAt(write, read)
                    write += 1
                case .action(let id, _, _):
                    if !frames.isEmpty { frames[frames.count - 1].hadContent = true }
                    if id != target {
                        buffer.swapAt(write, read)
                        write += 1
                    }
                case .singleton(let id, _, _):
                    if !frames.isEmpty { frames[frames.count - 1].hadContent = true }
                    if id != target {
                        buffer.swapAt(write, read)
                        write += 1
                    } else if frames.isEmpty {
                        removedTopLevel += 1
                    }
                case .end:
                    let frame = frames.removeLast()
                    if frame.hadContent && write == frame.begin + 1 {
                        // Emptied by this removal: drop its begin mark too.
                        write -= 1
                        if frames.isEmpty { removedTopLevel += 1 }
                    } else {
                        // Swap first: the slot at `write` may hold a removed entry, which
                        // must reach `dropped` rather than be released here.
                        buffer.swapAt(write, read)
                        buffer[write] = .end(length: write - frame.begin)
                        write += 1
                    }
                }
            }
        }
        dropped.append(contentsOf: entries[write...])
        entries.removeSubrange(write...)
        // Whatever is still on the frame stack is an open group, never removed.
        openBegins = frames.map(\.begin)
        topLevelCount -= removedTopLevel
        return true
    }

    func containsAction(on target: ObjectIdentifier) -> Bool {
        for index in head..<entries.count {
            switch entries[index] {
            case .action(let id, _, _), .singleton(let id, _, _):
                if id == target { return true }
            case .begin, .end:
                continue
            }
        }
        return false
    }
}
