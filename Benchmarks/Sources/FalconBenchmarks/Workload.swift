import FalconCore

/// The attributes of a typical execute: the placement details and a handful of user details, a few dozen
/// short strings in all.
enum Workload {
    static let apiKey = "BENCH_API_KEY_0123456789"
    static let mapping = ["checkout/ORDER_STATUS": "falcon-placement-42", "ORDER_STATUS": "falcon-placement-7"]
    static let config = FalconConfig(placementMapping: mapping)

    static let attributes: JSONValue = [
        "placement_details": ["view": "ORDER_STATUS", "layout_id": "checkout"],
        "user_details": [
            "email": "jane.doe+falcon@example.com",
            "first_name": "Jane",
            "last_name": "Doe",
            "zipcode": "94107",
            "country": "US",
            "language": "en",
            "amount": 49.99,
            "order_count": 3,
            "is_member": true,
            "city": "San Francisco",
        ],
    ]

    static let style = FalconStyle(fontFamily: "Roboto")
}
