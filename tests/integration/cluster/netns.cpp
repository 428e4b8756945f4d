#include "netns.hpp"

#include <unistd.h>

#include <stdexcept>

#include "run.hpp"

namespace cuzk::test {

namespace {

void must(const std::string& cmd) {
  const auto r = run(cmd);
  if (r.rc != 0) throw std::runtime_error("failed (" + std::to_string(r.rc) + "): " + cmd + "\n" + r.out + r.err);
}

}  // namespace

netns::netns(int index) {
  if (::geteuid() != 0) throw std::runtime_error("network namespaces need root (ip netns add)");
  for (const char* p : {"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"})
    if (::access(p, X_OK) == 0) {
      ip_ = p;
      break;
    }
  if (ip_.empty()) throw std::runtime_error("no ip binary (scripts/setup.sh installs iproute2)");
  const auto pid = std::to_string(::getpid() % 10000000);
  name_ = "cuzk-" + pid + "-" + std::to_string(index);
  host_if_ = "cz" + pid + "h" + std::to_string(index);
  ns_if_ = "cz" + pid + "n" + std::to_string(index);
  // 10.(64 + pid mod 128).(4·index).0/30: .1 the host's end, .2 the namespace's.
  const std::string net = "10." + std::to_string(64 + ::getpid() % 128) + "." + std::to_string(4 * index) + ".";
  host_addr_ = net + "1";
  ns_addr_ = net + "2";
  (void)run("ip netns del " + name_ + " 2>/dev/null");  // a previous run of the same pid
  must("ip netns add " + name_);
  must("ip link add " + host_if_ + " type veth peer name " + ns_if_);
  must("ip link set " + ns_if_ + " netns " + name_);
  must("ip addr add " + host_addr_ + "/30 dev " + host_if_);
  must("ip link set " + host_if_ + " up");
  must("ip netns exec " + name_ + " ip addr add " + ns_addr_ + "/30 dev " + ns_if_);
  must("ip netns exec " + name_ + " ip link set " + ns_if_ + " up");
  must("ip netns exec " + name_ + " ip link set lo up");
}

netns::~netns() {
  (void)run("ip netns del " + name_);
  (void)run("ip link del " + host_if_ + " 2>/dev/null");
}

void netns::cut() { must("ip link set " + host_if_ + " down"); }

void netns::restore() { must("ip link set " + host_if_ + " up"); }

}  // namespace cuzk::test
