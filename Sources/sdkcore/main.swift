// The `sdkcore` command-line tool: a small hand-written dispatcher over the commands in `CLI/Commands.swift`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let status = await CommandLineTool.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
