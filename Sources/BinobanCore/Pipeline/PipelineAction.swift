/// What the pipeline machine asks its driver to do. The driver performs every action it is given, in order.
enum PipelineAction: Sendable, Equatable {
    /// Take everything the intake holds and answer with ``PipelineInput/drained(_:)``.
    case takeDrain
    /// Append the next chunk of the current drain (or the suffix a full storage refused last time).
    case write(BinobanStorageFullBehaviour)
    /// Drop the suffix the storage refused (it was counted).
    case discardRefused
    /// Close the open batch and list at most `limit` finished batches.
    case list(limit: Int)
    /// Read a batch and keep it for sending.
    case read(BinobanBatchID)
    /// Send a batch that was read (stamping `sentAt` now).
    case send(BinobanBatchID)
    /// Let go of a batch that was read: it is kept in storage for a later flush, or it is gone.
    case forget(BinobanBatchID)
    /// Delete a batch after its final answer.
    case remove(BinobanBatchID)
    /// Persist the identity.
    case saveIdentity(IdentityState)
    /// Resume an awaiting caller.
    case resume(UInt64, BinobanFlushResult)
    /// Delete every finished batch from storage but those in `excluding` (being read, sent or deleted), and
    /// answer with ``PipelineInput/purged(_:)``.
    case purge(excluding: Set<BinobanBatchID>, namesEvents: Bool)
    /// Resume the callers of a purge with what it deleted.
    case resumePurges([UInt64], BinobanPurgeResult)
    /// Report a problem to the host, with the number of events it concerns. `file`, `function` and `line` are
    /// where the machine decided to report (filled in by the defaults), for the log record.
    case report(
        BinobanError.Kind, String, eventCount: Int, file: String = #fileID, function: String = #function,
        line: UInt = #line)
    /// Report an ``BinobanError/Kind/uploadFailed`` about a request without an answer, with the transport's reason
    /// (``BinobanError/transportFailure``); `file`, `function` and `line` as for ``report(_:_:eventCount:file:function:line:)``.
    case reportNoAnswer(
        String, BinobanTransportFailure, file: String = #fileID, function: String = #function, line: UInt = #line)
    /// Tell the delivery observer (and callers awaiting these events) what became of a group of events. Asked
    /// only while the machine names events (``PipelineRules/reportsDeliveries``, or since the first awaited
    /// event); performed before the batch's `forget` or `remove`.
    case deliver(DeliveryNotice)
    /// Take the intake's settings change without its events (a held write keeps them waiting there), and
    /// answer with ``PipelineInput/settingsTaken(_:pausedSinceLastDrain:)``.
    case takeSettings
    /// Keep the message ids of the events written from now on (the first event a caller awaits was drained).
    case nameEvents
    /// Deliver the error reporter's summaries that are due.
    case deliverSummaries
    /// Cancel the requests in flight (the shutdown deadline passed).
    case cancelUploads
    /// The pipeline has stopped: nothing more will be asked.
    case finish
}
