/// ``PipelineMachine``'s rule for the order of one input's actions: the requests it starts come before its first
/// storage call (Docs/Decisions/0235).
extension PipelineMachine {
    /// Moves every ``PipelineAction/send(_:)`` that follows a storage call to just before the first storage call,
    /// keeping the order of the sends and of everything else.
    ///
    /// The driver performs one input's actions in order, and a storage call takes time (the loop's thread waits
    /// for the disk, or for a host's storage). A shutdown posted meanwhile reaches the machine only with the next
    /// input, so a send listed after that call would start past a deadline the machine had not seen yet: a request
    /// no one awaits, and a duplicate at the next run if it is delivered. Listed first, each request starts at the
    /// instant the machine decided it, with the stops posted until then already taken (the driver feeds a posted
    /// stop before each input). A send depends on nothing a storage call of the same input does: its batch was read
    /// by an earlier input, and the calls concern other batches (a delete, a write, a listing, a read).
    static func startRequestsFirst(_ actions: inout [PipelineAction]) {
        guard let firstCall = actions.firstIndex(where: \.waitsForStorage) else { return }
        var insertAt = firstCall
        var index = firstCall + 1
        while index < actions.count {
            if case .send = actions[index] {
                let send = actions.remove(at: index)
                actions.insert(send, at: insertAt)
                insertAt += 1
            }
            index += 1
        }
    }
}

extension PipelineAction {
    /// Whether the driver waits for a storage (or the key-value store) to perform this action.
    var waitsForStorage: Bool {
        switch self {
        case .write, .list, .read, .remove, .saveIdentity, .purge: true
        case .takeDrain, .discardRefused, .send, .forget, .resume, .resumePurges, .report, .reportNoAnswer, .deliver,
            .takeSettings, .nameEvents, .deliverSummaries, .cancelUploads, .finish:
            false
        }
    }
}
