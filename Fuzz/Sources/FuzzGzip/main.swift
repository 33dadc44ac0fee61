import CLibFuzzer
import Foundation

// libFuzzer parses the command line (corpus directories, -max_total_time=, …) and calls fuzzGzip per input.
var arguments = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&arguments, &argv) { data, size in fuzzGzip(data, size) })
