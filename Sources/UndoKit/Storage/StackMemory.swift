import Foundation

/// The raw memory of ``StackBuffer`` and ``TwinStackBuffer``: `realloc` rather than
/// allocate-copy-free, so a large buffer grows in place or by remapping pages, not by a copy
/// touching twice its size. It moves elements as bytes, sound for what the stacks store
/// (class references, closure contexts, integers), not for Objective-C weak references.
enum StackMemory {
    /// Uninitialized memory for `capacity` elements; never null, even for none.
    static func allocate<Element>(_: Element.Type, capacity: Int) -> UnsafeMutablePointer<Element> {
        let bytes = Swift.max(byteCount(Element.self, capacity), 1)
        guard let memory = malloc(bytes) else { fatalError("StackMemory: out of memory allocating \(bytes) bytes") }
        return memory.bindMemory(to: Element.self, capacity: capacity)
    }

    /// `memory` resized to hold `capacity` elements, its contents moved as bytes; `memory`
    /// itself is no longer valid.
    static func reallocate<Element>(_ memory: UnsafeMutablePointer<Element>, capacity: Int) -> UnsafeMutablePointer<Element> {
        let bytes = Swift.max(byteCount(Element.self, capacity), 1)
        guard let grown = realloc(memory, bytes) else { fatalError("StackMemory: out of memory growing to \(bytes) bytes") }
        return grown.bindMemory(to: Element.self, capacity: capacity)
    }

    /// Frees memory from ``allocate(_:capacity:)`` or ``reallocate(_:capacity:)``, whose
    /// elements the caller has deinitialized.
    static func deallocate<Element>(_ memory: UnsafeMutablePointer<Element>) {
        free(memory)
    }

    private static func byteCount<Element>(_: Element.Type, _ capacity: Int) -> Int {
        let (bytes, overflow) = capacity.multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
        precondition(!overflow, "StackMemory: \(capacity) elements do not fit in memory")
        return bytes
    }
}
