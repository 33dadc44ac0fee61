import BenchmarkSupport
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

    /// Calls per resolve or URL sample: 200 000, or `BENCH_ITERATIONS` (smaller for a run under callgrind).
    static let iterations = environment("BENCH_ITERATIONS").flatMap { Int($0) } ?? 200_000
    /// Executes per CPU sample: 20 000, or `BENCH_EXECUTES` (a multiple of the 1 000-execute window).
    static let executes = environment("BENCH_EXECUTES").flatMap { Int($0) } ?? 20_000
}
