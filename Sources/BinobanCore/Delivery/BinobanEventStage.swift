/// A before-send stage: sees every event once, before it is encoded and stored, and may change it or drop it.
/// Install an ordered list on ``Configuration/stages``.
///
/// Stages run on the pipeline's own task as it writes (never on the thread that called `track()`), one event at a
/// time, in the order of the list and of the events; an event a stage drops reaches no later stage. A drop is
/// counted by its reason in ``BinobanStatistics/Drops/stageReasons`` and the metric
/// `binoban_stage_drops_total`, and reported to the ``Configuration/deliveryObserver``.
///
/// A stage holds the write stage while it runs: a slow one slows storage, and events then wait in the write stage
/// within ``Configuration/writeStageCapacity`` (beyond it they are dropped as overflow, counted), so memory stays
/// bounded whatever the stage costs.
public protocol BinobanEventStage: Sendable {
    /// Changes `event` in place and keeps it, or drops it with a short reason (a fixed vocabulary such as
    /// `"consent"` or `"sampled"`: it becomes a statistics key and a metric dimension, never a message).
    func process(_ event: inout BinobanEvent) -> BinobanStageDecision
}

/// What a ``BinobanEventStage`` decided for one event.
public enum BinobanStageDecision: Sendable, Hashable {
    /// Pass the event, as the stage left it, to the next stage and then to storage.
    case keep
    /// Drop the event, counted under `reason`.
    case drop(reason: String)
}
