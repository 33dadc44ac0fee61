/// A few named members of a JSON object, as the per-execute paths read them (the attributes' two levels, the
/// bridge envelope).
enum FalconObjectMembers {
    /// The members named `first`, `second` and `third` (each `nil` when absent).
    ///
    /// An object of up to four members, the usual size, is scanned with a length test and a comparison per
    /// member instead of hashing every name; a larger one is looked up. The names passed are lower-case ASCII
    /// and `_`, which no other spelling is canonically equivalent to, so the length test rejects no match.
    static func lookUp(
        _ object: [String: JSONValue], _ first: String, _ second: String, _ third: String? = nil
    ) -> (JSONValue?, JSONValue?, JSONValue?) {
        guard object.count <= 4 else { return (object[first], object[second], third.flatMap { object[$0] }) }
        let counts = (first.utf8.count, second.utf8.count, third?.utf8.count ?? -1)
        var found: (JSONValue?, JSONValue?, JSONValue?) = (nil, nil, nil)
        for (key, value) in object {
            let count = key.utf8.count
            if count == counts.0, key == first {
                found.0 = value
            } else if count == counts.1, key == second {
                found.1 = value
            } else if count == counts.2, key == third {
                found.2 = value
            }
        }
        return found
    }
}
