import BinobanCore
import FalconCore

// Touch public symbols of both cores so that neither is dead-stripped.
let attributes: JSONValue = ["placement_details": ["view": "ORDER_STATUS"]]
print("linkage check: FalconCore \(Falcon.version) linked; sample \(attributes.jsonString())")
print("linkage check: BinobanCore push keys \(BinobanPushPayloadKeys.standard.source)")
