// The nodes a gateway speaks to: one, or several of one cluster (any node
// answers for every job of its cluster). A request goes to the node that
// answered last; one that does not answer (client::unreachable) gives way
// to the next, which is then preferred.
#pragma once

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "client/lib/connection.hpp"
#include "client/lib/errors.hpp"

namespace cuzk::gateway {

class node_endpoints {
 public:
  explicit node_endpoints(std::vector<std::string> e) : e_(std::move(e)) {
    if (e_.empty()) throw std::invalid_argument("the gateway needs a node's --endpoint");
  }
  /* f(connection&); with once, the preferred node only (a request whose body was read already). */
  template <class F>
  auto call(const client::options& o, F&& f, bool once = false) {
    const auto first = preferred_.load();
    for (std::size_t i = 0;; ++i) {
      const auto at = (first + i) % e_.size();
      try {
        client::connection c(e_[at], o);
        auto out = f(c);
        preferred_ = at;
        return out;
      } catch (const client::unreachable&) {
        if (once || i + 1 >= e_.size()) throw;
      }
    }
  }
  const std::vector<std::string>& all() const { return e_; }

 private:
  std::vector<std::string> e_;
  std::atomic<std::size_t> preferred_{0};
};

}  // namespace cuzk::gateway
