import NIOCore
import NIOHTTP1
import NIOPosix

/// A plain HTTP/1.1 client for 127.0.0.1: one connection per request, which it can also drop
/// halfway, as a user closing a browser tab does.
struct LoopbackHTTPClient: Sendable {
    struct Answer: Sendable, Equatable {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    let port: Int

    /// Sends `GET path` and returns the whole answer.
    func get(_ path: String) async throws -> Answer {
        try await connect().executeThenClose { inbound, outbound in
            try await outbound.write(.head(Self.head(path)))
            try await outbound.write(.end(nil))
            var status = 0
            var headers: [String: String] = [:]
            var body = ""
            for try await part in inbound {
                switch part {
                case .head(let head):
                    status = Int(head.status.code)
                    for (name, value) in head.headers {
                        headers[name.lowercased()] = value
                    }
                case .body(let buffer):
                    body += String(buffer: buffer)
                case .end:
                    return Answer(status: status, headers: headers, body: body)
                }
            }
            throw ConnectionClosedEarly(path: path)
        }
    }

    /// Sends `GET path`, waits for `moment` to return, then closes the connection without reading
    /// any answer.
    func getThenDisconnect(_ path: String, at moment: @Sendable () async throws -> Void) async throws {
        try await connect().executeThenClose { _, outbound in
            try await outbound.write(.head(Self.head(path)))
            try await outbound.write(.end(nil))
            try await moment()
            // Leaving `executeThenClose` closes the connection.
        }
    }

    private func connect() async throws -> NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
    }

    private static func head(_ path: String) -> HTTPRequestHead {
        HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: ["Host": "127.0.0.1"])
    }

    struct ConnectionClosedEarly: Error {
        let path: String
    }
}
