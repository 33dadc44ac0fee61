/// A delivery observer that keeps every report, for tests: install it as `Configuration.deliveryObserver`
/// and read ``deliveries`` once the instance is quiet.
public final class DeliveryRecorder: BinobanDeliveryObserver {
    private let recorded = LockedValue<[BinobanDelivery]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Keeps the report.
    public func deliveryFinished(_ delivery: BinobanDelivery) {
        recorded.withLock { $0.append(delivery) }
    }

    /// Every report so far, in the order they came.
    public var deliveries: [BinobanDelivery] { recorded.withLock { $0 } }

    /// The events reported with `outcome`, summed over the reports.
    public func eventCount(_ outcome: BinobanDeliveryOutcome) -> Int {
        deliveries.filter { $0.outcome == outcome }.reduce(0) { $0 + $1.eventCount }
    }

    /// The message ids reported with `outcome`, in report order.
    public func messageIds(_ outcome: BinobanDeliveryOutcome) -> [String] {
        deliveries.filter { $0.outcome == outcome }.flatMap(\.messageIds)
    }
}
