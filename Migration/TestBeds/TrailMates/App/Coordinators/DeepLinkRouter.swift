import Foundation

/// Opens `trailmates://` links from notifications and shared messages.
@MainActor
final class DeepLinkRouter {
    private let navigation: NavigationController
    private let banners: BannerPresenter
    var onOpen: ((String) -> Void)?

    init(navigation: NavigationController, banners: BannerPresenter? = nil) {
        self.navigation = navigation
        self.banners = banners ?? .shared
    }

    func open(_ link: String) {
        let parts = link.replacingOccurrences(of: "trailmates://", with: "").split(separator: "/").map(String.init)
        guard parts.count == 2 else {
            banners.show("This link is not for TrailMates")
            return
        }
        switch parts[0] {
        case "trail":
            openTrail(Int(parts[1]) ?? 0)
        case "hiker":
            openHiker(parts[1])
        case "invite":
            openInvite(Int(parts[1]) ?? 0)
        default:
            banners.show("This link is not for TrailMates")
        }
    }

    /// A shared trail: opened with its forecast; a removed one says so.
    private func openTrail(_ trailID: Int) {
        TrailService.shared.trailDetails(id: trailID) { trail, error in
            guard error == nil else {
                DispatchQueue.main.async { self.banners.show("Could not open the trail") }
                return
            }
            guard let trail else {
                DispatchQueue.main.async { self.banners.show("This trail no longer exists") }
                return
            }
            WeatherService.shared.forecast(for: trail.id) { forecast in
                DispatchQueue.main.async {
                    let detail = TrailDetailViewController(trailID: trail.id)
                    self.navigation.push(detail, animated: true)
                    if let warning = forecast?.warning {
                        self.banners.show("\(trail.name): \(warning)")
                    }
                    self.onOpen?("trail \(trail.id)")
                }
            }
        }
    }

    private func openHiker(_ handle: String) {
        UserService.shared.findUser(handle: handle) { user, error in
            DispatchQueue.main.async {
                if let user {
                    ProfileViewController.open(userID: user.id, from: self.navigation)
                    self.onOpen?("hiker \(user.handle)")
                } else if let error {
                    self.banners.show(describe(error))
                } else {
                    self.banners.show("No hiker is called @\(handle)")
                }
            }
        }
    }

    private func openInvite(_ inviteID: Int) {
        InviteService.shared.pendingInvites { result in
            guard case .success(let invites) = result, let invite = invites.first(where: { $0.id == inviteID }) else {
                DispatchQueue.main.async { self.banners.show("This invitation is no longer open") }
                return
            }
            InviteService.shared.answer(invite, accept: true) { hike, error in
                DispatchQueue.main.async {
                    if let hike {
                        self.onOpen?("hike \(hike.id)")
                    } else {
                        self.banners.show(error.map(describe) ?? "This invitation expired")
                    }
                }
            }
        }
    }
}
