#include "cluster/cluster_link.hpp"

#include <spdlog/spdlog.h>

#include <pqxx/pqxx>

#include <algorithm>

namespace cuzk::server {

namespace {

class receiver final : public pqxx::notification_receiver {
 public:
  receiver(pqxx::connection_base& c, const std::string& channel, std::function<void(const std::string&)> f)
      : pqxx::notification_receiver(c, channel), f_(std::move(f)) {}
  void operator()(const std::string& payload, int) override { f_(payload); }

 private:
  std::function<void(const std::string&)> f_;
};

}  // namespace

cluster_link::cluster_link(std::string conninfo, boost::asio::io_context& loop)
    : conninfo_(with_liveness(conninfo)), loop_(loop), store_(std::move(conninfo)) {}

void cluster_link::listen(events ev) {
  ev_ = std::move(ev);
  listener_ = std::thread([this] { listen(); });
}

cluster_link::~cluster_link() {
  stop_ = true;
  if (listener_.joinable()) listener_.join();
  db_.stop();
  db_.join();
}

// One connection that only LISTENs. A lost connection (the database
// restarted, the network cut: libpq's keepalives notice within seconds) is
// opened again after 0.5 s, then twice as long each time up to 8 s, until
// it is back.
void cluster_link::listen() {
  bool warned = false;
  int backoff_ms = 500;
  while (!stop_) {
    try {
      pqxx::connection c(conninfo_);
      receiver done(c, "cuzk_done", [this](const std::string& payload) {
        std::int64_t id = 0;
        try {
          id = std::stoll(payload);
        } catch (const std::exception&) {
          return;
        }
        boost::asio::post(loop_, [this, id] { ev_.done(id); });
      });
      receiver queued(c, "cuzk_queued",
                      [this](const std::string&) { boost::asio::post(loop_, [this] { ev_.queued(); }); });
      listening_ = true;
      if (warned) spdlog::info("cluster database: listening again");
      warned = false;
      backoff_ms = 500;
      boost::asio::post(loop_, [this] { ev_.resync(); });
      while (!stop_) c.await_notification(0, 200 * 1000);
    } catch (const std::exception& e) {
      listening_ = false;
      if (!warned)
        spdlog::warn("cluster database: the listener lost its connection ({}); retrying",
                     without_password(e.what(), conninfo_));
      warned = true;
      for (int waited = 0; waited < backoff_ms && !stop_; waited += 100)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      backoff_ms = std::min(backoff_ms * 2, 8000);
    }
  }
  listening_ = false;
}

}  // namespace cuzk::server
