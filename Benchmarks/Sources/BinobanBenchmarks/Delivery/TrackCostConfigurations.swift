import BenchmarkSupport
import BinobanCoreTesting
import Synchronization

/// The configurations of ``TrackCostRun``, by `BENCH_CONFIG`.
enum TrackCostConfigurations {
    /// A stage that keeps every event unchanged.
    struct NoOpStage: BinobanEventStage {
        func process(_ event: inout BinobanEvent) -> BinobanStageDecision { .keep }
    }

    /// An observer that counts the events reported.
    final class CountingObserver: BinobanDeliveryObserver {
        let events = Mutex(0)
        func deliveryFinished(_ delivery: BinobanDelivery) { events.withLock { $0 += delivery.eventCount } }
    }

    static func named(_ name: String?) -> (inout Configuration) -> Void {
        switch name {
        case "stage": return { $0.stages = [NoOpStage()] }
        case "observer": return { $0.deliveryObserver = CountingObserver() }
        case "stage+observer":
            return {
                $0.stages = [NoOpStage()]
                $0.deliveryObserver = CountingObserver()
            }
        default: return { _ in }
        }
    }
}
