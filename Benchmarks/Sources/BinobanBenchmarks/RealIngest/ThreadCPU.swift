#if canImport(Glibc)
import Glibc
#endif

/// The CPU time of this process's threads that carry one name (`/proc/self/task/*/comm`), summed, in seconds: on
/// Linux the libcurl transport's engine thread is `sdkcore-curl`, so its share of a run can be told apart from
/// the pipeline's and the calling loop's. `nil` where `/proc` is not there or no thread has the name.
enum ThreadCPU {
    static func seconds(named name: String) -> Double? {
        #if os(Linux)
        guard let directory = opendir("/proc/self/task") else { return nil }
        defer { closedir(directory) }
        var total: Double?
        while let entry = readdir(directory) {
            let task = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard task.first?.isNumber == true, read("/proc/self/task/\(task)/comm") == name + "\n" else { continue }
            // schedstat's first field: the thread's time on a CPU, in nanoseconds, since it started.
            let fields = read("/proc/self/task/\(task)/schedstat")?.split(separator: " ")
            guard let nanoseconds = fields?.first.flatMap({ Double($0) }) else { continue }
            total = (total ?? 0) + nanoseconds / 1e9
        }
        return total
        #else
        return nil
        #endif
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
