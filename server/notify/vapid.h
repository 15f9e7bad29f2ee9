// VAPID (RFC 8292): the application server identifies itself to push services with a P-256 key
// pair of its own. The server makes one on first start and keeps it (as text) in its database;
// browsers get the public key as `applicationServerKey` when they subscribe, and every push
// request carries a short-lived JWT signed with the private key.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "ec_key.h"

namespace viktory::notify {

class VapidKeys {
 public:
  static VapidKeys generate();
  // From the text that `to_text()` made; throws CryptoError if it is not a valid key.
  static VapidKeys from_text(std::string_view text);

  // What the database keeps: the 32-byte private scalar in base64url (43 characters), the form
  // web-push tools use too. The public key follows from it. It is a secret: never log it.
  std::string to_text() const;
  // The uncompressed public point in base64url (87 characters): what a browser's
  // PushManager.subscribe({applicationServerKey}) takes and the `k=` of the Authorization header.
  std::string public_key_base64url() const;

  // The JWT of RFC 8292 section 2: {"typ":"JWT","alg":"ES256"} and the claims aud (the push
  // service's origin), exp (expires, at most 24 h ahead) and sub (a mailto: or https: contact).
  std::string make_jwt(std::string_view audience, std::string_view subject,
                       std::chrono::system_clock::time_point expires) const;
  // `vapid t=<jwt>, k=<public key>` for a request to `endpoint` (its origin becomes aud);
  // the token is valid for 12 hours from `now`.
  std::string authorization_header(std::string_view endpoint, std::string_view subject,
                                   std::chrono::system_clock::time_point now) const;

  const EcKey& key() const { return key_; }

 private:
  explicit VapidKeys(EcKey key) : key_(std::move(key)) {}
  EcKey key_;
};

// The origin (scheme://host[:port]) of a URL, as the JWT's aud; throws std::invalid_argument if
// the URL is not absolute http(s).
std::string url_origin(std::string_view url);

}  // namespace viktory::notify
