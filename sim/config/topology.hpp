// A topology: devices built from their models, links joined between named ports, and
// the graph (Boost.Graph) that routes are computed on. Loading checks what a person
// gets wrong: duplicate ids, links to ports that do not exist, a port used twice, a
// required port left free, a PCIe hierarchy that is not a tree, a PCIe switch whose
// links need more lanes than it has. A PCIe link wider than an end device's widest
// link trains down to that width, as PCIe link width negotiation does; a note says so.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "sim/config/json_file.hpp"
#include "sim/core/block_storage.hpp"
#include "sim/core/device.hpp"
#include "sim/core/link.hpp"
#include "sim/core/route.hpp"

namespace iowall {

struct VertexProps {
  Device* device = nullptr;
};
struct EdgeProps {
  Link* link = nullptr;
  int index = 0;
};

class Topology {
public:
  using GraphType = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, VertexProps, EdgeProps>;
  // Builds every device and link into `ctx`. `file` and `pointer` locate `doc` for errors.
  Topology(SimContext& ctx, const Json& doc, std::string file, std::string pointer = "");
  ~Topology();

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  const std::string& file() const { return file_; }
  // What loading changed that the file did not say (a link trained to a narrower width).
  const std::vector<std::string>& notes() const { return notes_; }
  Device* find(const std::string& id) const;
  // The device with this id; InputError naming `where` when it does not exist.
  Device& device(const std::string& id, const std::string& where_file, const std::string& where_pointer) const;
  const std::vector<std::unique_ptr<Device>>& devices() const { return devices_; }
  const std::vector<std::unique_ptr<Link>>& links() const { return links_; }
  std::vector<Device*> devices_of(const std::string& model) const;
  // The devices that are block storage (Device::as_block_storage), in declaration order.
  std::vector<BlockStorage*> block_storage() const;
  // The block storage device with this id; InputError naming `where` when there is no
  // such device or it is not storage.
  BlockStorage& block_storage(const std::string& id, const std::string& where_file,
                              const std::string& where_pointer) const;

  // The route from one device to another (fewest hops; ties broken by declaration
  // order). Cached; the reference stays valid for the topology's life.
  const Route& route(const Device& from, const Device& to) const;
  bool connected(const Device& from, const Device& to) const;
  // Hops from `from` to every device (by index_of; -1: unreachable), in one search.
  std::vector<int> hops_from(const Device& from) const;
  int index_of(const Device& d) const;
  // Graphviz text of the topology (written by Boost.Graph's write_graphviz).
  std::string dot() const;

private:
  struct Graph;
  void check_size(const Json& doc) const;
  void build_devices(SimContext& ctx, const Json& devices);
  void build_links(SimContext& ctx, const Json& links);
  void check_pcie_tree() const;
  void check_switch_lanes(const std::vector<int>& widths) const;
  std::vector<int> path(int from, int to) const;

  std::string name_, description_, file_, pointer_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<std::unique_ptr<Link>> links_;
  std::vector<std::string> notes_;
  std::map<std::string, int> index_;
  std::unique_ptr<Graph> graph_;
  mutable std::map<std::pair<int, int>, std::unique_ptr<Route>> routes_;
};

}  // namespace iowall
