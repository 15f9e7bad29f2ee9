// What every network session needs to reach: configuration, the Hub, metrics and the
// connection bookkeeping. Owned by main(); outlives every session.
#pragma once

#include "accounts.h"
#include "chat_comforts.h"
#include "client_address.h"
#include "config.h"
#include "connections.h"
#include "hub.h"
#include "metrics.h"
#include "static_files.h"
#include "turn_notifications.h"

namespace viktory::server {

struct ServerContext {
  const Config& config;
  Hub& hub;
  Metrics& metrics;
  ConnectionLimiter& limiter;
  SessionRegistry& registry;
  const AddressSet& trusted_proxies;
  Accounts* accounts = nullptr;                // sign-in links, recovery codes, e-mail (accounts.h)
  TurnNotifications* turns = nullptr;          // push subscriptions, settings, webhooks
  const notify::Notifier* notifier = nullptr;  // its counters join /metrics
  PresenceApi* presence = nullptr;             // GET /api/presence
  const Store* store = nullptr;                // its group commit counters join /metrics
  StaticFiles* static_files = nullptr;         // the web root in memory; without: served from disk
  ChatMutes* mutes = nullptr;                  // POST /api/mute, GET /api/mutes (chat_comforts.h)
};

}  // namespace viktory::server
