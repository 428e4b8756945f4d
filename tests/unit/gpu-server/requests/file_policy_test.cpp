// What the key/witness policy tells a client about files it names: only what
// the client could learn itself (DESIGN §9). A directory the client may not
// search hides whether a name inside exists and what it is.
#include "requests/file_policy.hpp"

#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

namespace cuzk::server {
namespace {

namespace fs = std::filesystem;

struct tree {
  fs::path root;
  tree() {
    root = fs::temp_directory_path() /
           ("cuzk-file-policy-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
    fs::create_directories(root);
    ::chmod(root.c_str(), 0755);
    root = fs::canonical(root);
  }
  ~tree() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  fs::path dir(const std::string& name, mode_t mode) const {
    fs::create_directories(root / name);
    ::chmod((root / name).c_str(), mode);
    return root / name;
  }
  fs::path file(const std::string& name, mode_t mode) const {
    std::ofstream(root / name) << "key bytes";
    ::chmod((root / name).c_str(), mode);
    return root / name;
  }
};

net::peer_credentials nobody() {
  const passwd* pw = ::getpwnam("nobody");
  return pw ? net::peer_credentials{pw->pw_uid, pw->pw_gid, 1} : net::peer_credentials{65534, 65534, 1};
}

/* The error with the path replaced by P: two names compare by what is said about them. */
std::string said(const file_policy& fp, const net::peer_credentials& who, const fs::path& p) {
  auto r = fp.open(who, p.string());
  if (r) return "opened";
  std::string e = r.error();
  if (auto at = e.find(p.string()); at != std::string::npos) e.replace(at, p.string().size(), "P");
  return e;
}

TEST(FilePolicy, ADirectoryThePeerMayNotSearchHidesWhetherANameInsideExistsAndWhatItIs) {
  if (::geteuid() == nobody().uid) GTEST_SKIP() << "runs as nobody: no second uid to be the peer";
  tree t;
  const auto hidden = t.dir("hidden", 0700);
  t.file("hidden/exists.zkey", 0644);
  t.dir("hidden/sub", 0755);
  t.file("hidden/sub/deep.zkey", 0644);
  ASSERT_EQ(::mkfifo((hidden / "fifo.zkey").c_str(), 0644), 0);
  fs::create_symlink("/etc/passwd", hidden / "link.zkey");
  const file_policy fp({t.root}, "key");
  const auto none = said(fp, nobody(), hidden / "missing.zkey");
  EXPECT_NE(none.find("permission denied or no such file"), std::string::npos) << none;
  for (const char* name : {"exists.zkey", "sub", "fifo.zkey", "link.zkey", "sub/deep.zkey", "nodir/x.zkey"})
    EXPECT_EQ(said(fp, nobody(), hidden / name), none) << name;
  // The owner is told what is there.
  EXPECT_EQ(said(fp, {::geteuid(), ::getegid(), 1}, hidden / "exists.zkey"), "opened");
  EXPECT_NE(said(fp, {::geteuid(), ::getegid(), 1}, hidden / "missing.zkey").find("No such file"), std::string::npos);
}

TEST(FilePolicy, InDirectoriesThePeerMaySearchItIsToldWhatItCouldSeeItself) {
  if (::geteuid() == nobody().uid) GTEST_SKIP() << "runs as nobody: no second uid to be the peer";
  tree t;
  t.dir("open", 0755);
  const auto mine = t.file("open/readable.zkey", 0644);
  const auto theirs = t.file("open/private.zkey", 0600);
  ASSERT_EQ(::mkfifo((t.root / "open/fifo.zkey").c_str(), 0644), 0);
  fs::create_symlink("/etc/passwd", t.root / "open/link.zkey");
  const file_policy fp({t.root}, "key");
  auto r = fp.open(nobody(), mine.string());
  ASSERT_TRUE(r) << r.error();
  EXPECT_GE(r->fd(), 0);
  EXPECT_NE(said(fp, nobody(), theirs).find("permission denied: you"), std::string::npos);
  EXPECT_NE(said(fp, nobody(), t.root / "open/missing.zkey").find("No such file"), std::string::npos);
  EXPECT_NE(said(fp, nobody(), t.root / "open/fifo.zkey").find("not a regular file"), std::string::npos);
  EXPECT_NE(said(fp, nobody(), t.root / "open/link.zkey").find("symbolic link"), std::string::npos);
  EXPECT_NE(said(fp, nobody(), "/etc/passwd").find("outside the directories"), std::string::npos);
}

TEST(FilePolicy, AFileInTheAllowedDirectoryItselfIsHiddenWhenThePeerMayNotSearchIt) {
  if (::geteuid() == nobody().uid) GTEST_SKIP() << "runs as nobody: no second uid to be the peer";
  tree t;
  t.file("top.zkey", 0644);
  ::chmod(t.root.c_str(), 0700);
  const file_policy fp({t.root}, "key");
  EXPECT_EQ(said(fp, nobody(), t.root / "top.zkey"), said(fp, nobody(), t.root / "absent.zkey"));
}

}  // namespace
}  // namespace cuzk::server
