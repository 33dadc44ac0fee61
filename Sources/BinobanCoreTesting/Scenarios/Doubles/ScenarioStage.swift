import BinobanCore

/// A scenario file's declared before-send stage (``BinobanScenario/Stage``) as a real `BinobanEventStage`.
struct ScenarioStage: BinobanEventStage {
    let rule: BinobanScenario.Stage

    func process(_ event: inout BinobanEvent) -> BinobanStageDecision {
        switch rule {
        case .drop(let name, let reason):
            return event.name == name ? .drop(reason: reason) : .keep
        case .removeProperty(let key):
            if var members = event.properties.objectValue, members.removeValue(forKey: key) != nil {
                event.properties = .object(members)
            }
            return .keep
        }
    }
}
