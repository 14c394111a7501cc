// Stand-in for Apple's `Darwin` module, which Apple's Foundation re-exports. Empty: it exists
// so that `#if canImport(Darwin)` is true where the simulation compiles UndoKit, as it is on
// every Apple platform. UndoKit guards the names Apple's Foundation declares with
// `#if !canImport(Darwin)`.
