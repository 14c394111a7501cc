extension LineEditor {
    /// Turns the bytes a terminal sends into keys: UTF-8 characters, control keys, and the
    /// escape sequences of arrows, Home/End, Delete and word jumps (xterm and VT forms).
    ///
    /// Bytes arrive in arbitrary chunks, so a sequence cut between two reads waits in the
    /// decoder for its end. Invalid UTF-8 becomes U+FFFD.
    ///
    /// ```swift
    /// var decoder = LineEditor.KeyDecoder()
    /// decoder.keys(from: [0x1B, 0x5B])   // []: the sequence is not complete
    /// decoder.keys(from: [0x44])         // [.left]
    /// ```
    public struct KeyDecoder {
        private var pending: [UInt8] = []

        /// Creates a decoder with nothing pending.
        public init() {}

        /// Whether a lone escape byte is waiting: the caller decides, after a short wait for
        /// more bytes, that it was the Escape key (see ``flushEscape()``).
        public var isWaitingAfterEscape: Bool { pending == [0x1B] }

        /// Ends a lone escape as a key of its own (ignored by the editor).
        public mutating func flushEscape() -> [Key] {
            guard isWaitingAfterEscape else { return [] }
            pending = []
            return [.ignored]
        }

        /// The keys `bytes` complete, in order.
        public mutating func keys(from bytes: [UInt8]) -> [Key] {
            pending += bytes
            var keys: [Key] = []
            var index = 0
            while index < pending.count {
                guard let (key, length) = Self.decode(pending[index...]) else { break }
                keys.append(key)
                index += length
            }
            pending.removeFirst(index)
            return Self.combiningMarksJoined(keys)
        }

        /// One key from the start of `bytes` and how many bytes it took; `nil` if `bytes`
        /// end inside it.
        private static func decode(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
            guard let first = bytes.first else { return nil }
            switch first {
            case 0x0D, 0x0A: return (.enter, 1)
            case 0x7F, 0x08: return (.backspace, 1)
            case 0x01: return (.home, 1)
            case 0x02: return (.left, 1)
            case 0x03: return (.interrupt, 1)
            case 0x04: return (.endOfInput, 1)
            case 0x05: return (.end, 1)
            case 0x06: return (.right, 1)
            case 0x0B: return (.killToEnd, 1)
            case 0x0C: return (.clearScreen, 1)
            case 0x0E: return (.down, 1)
            case 0x10: return (.up, 1)
            case 0x15: return (.killToStart, 1)
            case 0x17: return (.killWordBefore, 1)
            case 0x1A: return (.suspend, 1)
            case 0x09: return (.character("\t"), 1)
            case 0x1B: return escapeSequence(bytes)
            case ..<0x20: return (.ignored, 1)
            default: return utf8Character(bytes)
            }
        }

        private static func escapeSequence(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
            let start = bytes.startIndex
            guard bytes.count >= 2 else { return nil }
            let second = bytes[start + 1]
            switch second {
            case UInt8(ascii: "["):
                // CSI: parameters and intermediates, then one final byte in 0x40...0x7E.
                var index = start + 2
                while index < bytes.endIndex, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                guard index < bytes.endIndex else { return nil }
                let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
                let length = index - start + 1
                // Ctrl or Alt held.
                let isControl = parameters.hasSuffix(";5") || parameters.hasSuffix(";3")
                if let key = cursorKey(bytes[index]) {
                    switch key {
                    case .left where isControl: return (.wordLeft, length)
                    case .right where isControl: return (.wordRight, length)
                    default: return (key, length)
                    }
                }
                switch (bytes[index], parameters) {
                case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, length)
                case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, length)
                case (UInt8(ascii: "~"), "3"): return (.delete, length)
                default: return (.ignored, length)
                }
            case UInt8(ascii: "O"):
                // SS3, what some terminals send for the same keys in application mode.
                guard bytes.count >= 3 else { return nil }
                return (cursorKey(bytes[start + 2]) ?? .ignored, 3)
            case UInt8(ascii: "b"): return (.wordLeft, 2)
            case UInt8(ascii: "f"): return (.wordRight, 2)
            case 0x7F: return (.killWordBefore, 2)
            default: return (.ignored, 2)
            }
        }

        /// The arrow, Home or End key a CSI or SS3 sequence's final byte names.
        private static func cursorKey(_ final: UInt8) -> Key? {
            switch final {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .right
            case UInt8(ascii: "D"): .left
            case UInt8(ascii: "H"): .home
            case UInt8(ascii: "F"): .end
            default: nil
            }
        }

        private static func utf8Character(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
            let first = bytes[bytes.startIndex]
            let length = switch first {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            case ..<0x80: 1
            default: 0
            }
            guard length > 0 else { return (.character("\u{FFFD}"), 1) }
            guard bytes.count >= length else { return nil }
            let sequence = bytes[bytes.startIndex..<(bytes.startIndex + length)]
            guard sequence.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }),
                  let character = String(validating: sequence, as: UTF8.self)?.first
            else { return (.character("\u{FFFD}"), 1) }
            return (.character(character), length)
        }

        /// Joins combining marks, variation selectors and the like to the character before
        /// them, as the terminal draws them: one character to move over and delete.
        private static func combiningMarksJoined(_ keys: [Key]) -> [Key] {
            var joined: [Key] = []
            for key in keys {
                if case .character(let mark) = key, case .character(let base)? = joined.last {
                    let combined = String(base) + String(mark)
                    if combined.count == 1, let character = combined.first {
                        joined[joined.count - 1] = .character(character)
                        continue
                    }
                }
                joined.append(key)
            }
            return joined
        }
    }
}
