/// A context provider that returns a fixed context, for golden tests.
public struct FixedContextProvider: BinobanContextProvider {
    /// The context returned.
    public var context: BinobanStaticContext

    /// Returns `context` for every instance.
    public init(_ context: BinobanStaticContext = BinobanStaticContext()) {
        self.context = context
    }

    /// The fixed context.
    public func staticContext() -> BinobanStaticContext { context }
}
