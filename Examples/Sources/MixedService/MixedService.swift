import Foundation
import MixedServiceKit

/// Serves the mixed async/promise catalog over HTTP on 127.0.0.1, logging what every layer does.
/// See MixedServiceKit for the code, and Examples/README.md for what to try.
///
///     swift run --package-path Examples MixedService --port 0
///
/// Stop it with Ctrl-C: the server stops gracefully, letting requests in flight finish.
@main
struct MixedService {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") || arguments.contains("-h") {
            print(MixedServiceConfiguration.usage)
            return
        }
        let configuration: MixedServiceConfiguration
        do {
            configuration = try MixedServiceConfiguration.parse(arguments: arguments)
        } catch {
            FileHandle.standardError.write(Data("MixedService: \(error)\n\(MixedServiceConfiguration.usage)\n".utf8))
            exit(2)
        }
        let server = MixedServer(configuration: configuration, log: .standardOutput)
        do {
            try await server.makeApplication().runService()
        } catch {
            FileHandle.standardError.write(Data("MixedService: \(error)\n".utf8))
            exit(1)
        }
    }
}
