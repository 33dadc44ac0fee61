import BinobanCore
import FalconCore

// Touch one public symbol of each core so that neither is dead-stripped.
let attributes: JSONValue = ["placement_details": ["view": "ORDER_STATUS"]]
print("linkage check: FalconCore and BinobanCore linked; sample \(attributes.jsonString())")
