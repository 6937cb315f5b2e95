// The one writer of the checkpoint plan's result JSON, and its reader.
#include "sim/report/plan_result_json.hpp"

#include "sim/core/error.hpp"
#include "sim/report/json_fields.hpp"
#include "sim/report/result_file.hpp"
#include "sim/report/uncertainty_json.hpp"

namespace iowall {

using nlohmann::json;

namespace {

json phase_json(const PlanPhaseResult& p) {
  json bounds = json::object();
  for (const auto& [name, s] : p.bounds_s) bounds[name] = s;
  return {{"bytes", p.bytes}, {"first_done_s", p.first_done_s}, {"last_done_s", p.last_done_s},
          {"bottleneck", p.bottleneck}, {"bounds_s", bounds}};
}

json curve_json(const PlanOverheadCurve& c) {
  json points = json::array();
  for (const auto& p : c.points)
    points.push_back({{"bandwidth_Bps", p.bandwidth_Bps}, {"gds_overhead", p.gds_overhead},
                      {"bounce_overhead", p.bounce_overhead}});
  return {{"per_node", c.per_node}, {"current_bandwidth_Bps", c.current_bandwidth_Bps}, {"points", points}};
}

json node_json(const PlanNodeResult& n) {
  auto run = [](const std::vector<PlanNodeResult::Phase>& phases, double last) {
    json a = json::array();
    for (const auto& p : phases)
      a.push_back({{"name", p.name}, {"seconds", p.seconds}, {"limited_by", p.limited_by}, {"utilization", p.utilization}});
    return json{{"last_done_s", last}, {"phases", a}};
  };
  json j = {{"topology", n.topology}, {"path", n.path},         {"gpus", n.gpus},
            {"rank_bytes", n.rank_bytes}, {"save", run(n.save, n.save_s)}, {"restore", run(n.restore, n.restore_s)}};
  if (n.first_save_s > 0) {
    j["first_save"] = run(n.first_save, n.first_save_s);
    j["periodic_save"] = run(n.periodic_save, n.periodic_save_s);
    j["periodic_save"]["new_memory_share"] = n.new_memory_share;
    j["periodic_save"]["new_memory_from"] = n.new_memory_from;
  }
  return j;
}

// --- reading ---

bool plan_flag(const JsonFields& f, const char* key) {
  if (!f.has(key)) return false;
  if (!f.at(key).is_boolean()) f.fail(key, "not true or false");
  return f.at(key).get<bool>();
}

int small_integer(const JsonFields& f, const char* key) { return static_cast<int>(f.integer(key)); }

// The object at `key`, which must be one when present.
std::optional<JsonFields> object(const JsonFields& f, const char* key, bool required = false) {
  if (!f.has(key)) {
    if (required) f.fail(key, "missing or not an object");
    return std::nullopt;
  }
  return JsonFields(f.at(key), f.file(), f.pointer(key), "missing or not an object");
}

PlanPhaseResult phase_from(const JsonFields& f) {
  PlanPhaseResult p{f.number("bytes"), f.number("first_done_s"), f.number("last_done_s"), f.text("bottleneck"), {}};
  if (const auto b = object(f, "bounds_s"))
    for (const auto& item : f.at("bounds_s").items()) p.bounds_s[item.key()] = b->number(item.key().c_str());
  return p;
}

PlanNodeResult node_from(const JsonFields& f) {
  PlanNodeResult n;
  n.topology = f.text("topology");
  n.path = f.text("path");
  n.gpus = small_integer(f, "gpus");
  n.rank_bytes = f.number("rank_bytes");
  auto run = [&](const char* key, std::vector<PlanNodeResult::Phase>& phases, double& last) {
    const JsonFields r(f.at(key), f.file(), f.pointer(key), "missing or not an object");
    last = r.number("last_done_s");
    if (!r.has("phases")) return;
    const json& a = r.at("phases");
    if (!a.is_array()) r.fail("phases", "not an array of phases");
    for (std::size_t i = 0; i < a.size(); ++i) {
      const JsonFields p(a[i], f.file(), r.pointer("phases", i));
      phases.push_back({p.text("name"), p.number("seconds"), p.text("limited_by"), p.number("utilization")});
    }
  };
  if (!f.has("save") || !f.has("restore")) f.fail("save", "the node's save and restore are both required");
  run("save", n.save, n.save_s);
  run("restore", n.restore, n.restore_s);
  if (f.has("first_save")) {
    run("first_save", n.first_save, n.first_save_s);
    run("periodic_save", n.periodic_save, n.periodic_save_s);
    const JsonFields ps(f.at("periodic_save"), f.file(), f.pointer("periodic_save"));
    n.new_memory_share = ps.number("new_memory_share");
    n.new_memory_from = ps.text("new_memory_from");
  }
  return n;
}

PlanOverheadCurve curve_from(const JsonFields& f) {
  PlanOverheadCurve c;
  c.per_node = plan_flag(f, "per_node");
  c.current_bandwidth_Bps = f.number("current_bandwidth_Bps");
  if (f.has("points")) {
    const json& a = f.at("points");
    if (!a.is_array()) f.fail("points", "not an array of points");
    for (std::size_t i = 0; i < a.size(); ++i) {
      const JsonFields p(a[i], f.file(), f.pointer("points", i));
      c.points.push_back({p.number("bandwidth_Bps"), p.number("gds_overhead"), p.number("bounce_overhead")});
    }
  }
  return c;
}

}  // namespace

json to_json(const PlanCheckpointResult& r) {
  const PlanStateResult& s = r.state;
  json j;
  j["iowall_result"] = result_marker("plan_checkpoint");
  j["name"] = r.name;
  j["fidelity"] = r.fidelity;
  j["settings"] = r.settings;
  j["storage_notes"] = r.storage_notes;
  j["state"] = {{"params", s.params},
                {"bytes_per_param", {{"weights", s.weights}, {"master", s.master}, {"moments", s.moments},
                                     {"gradients", s.gradients}, {"saved", s.saved}}},
                {"total_bytes", s.total_bytes},
                {"writers", s.writers},
                {"nodes", s.nodes},
                {"rank_max_bytes", s.rank_max_bytes},
                {"node_max_bytes", s.node_max_bytes},
                {"training_state_per_gpu_bytes", s.training_state_per_gpu_bytes}};
  if (r.node) j["node"] = node_json(*r.node);
  j["save"] = phase_json(r.save);
  if (r.flush) j["flush"] = phase_json(*r.flush);
  j["restore"] = phase_json(r.restore);
  j["stall_s"] = r.stall_s;
  const PlanFailuresResult& f = r.failures;
  j["failures"] = {{"mttf_s", f.mttf_s},
                   {"mtbf_s", f.mtbf_s},
                   {"young_interval_s", f.young_interval_s},
                   {"daly_interval_s", f.daly_interval_s},
                   {"interval_s", f.interval_s},
                   {"recovery_s", f.recovery_s},
                   {"waste_first_order", f.waste_first_order}};
  j["availability"] = r.availability;
  j["availability_no_failures"] = r.availability_no_failures;
  j["overhead"] = r.overhead;
  const PlanPerDayResult& d = r.per_day;
  j["per_day"] = {{"gpu_hours_lost", d.gpu_hours_lost}, {"gpu_hours_checkpoint", d.gpu_hours_checkpoint},
                  {"gpu_hours_rework", d.gpu_hours_rework}, {"mwh_lost", d.mwh_lost},
                  {"mwh_checkpoint", d.mwh_checkpoint}, {"mwh_rework", d.mwh_rework}};
  j["cluster_power_W"] = r.cluster_power_W;
  j["power_wasted_W"] = r.power_wasted_W;
  j["warnings"] = r.warnings;
  if (const auto& b = r.inverse_bandwidth)
    j["inverse_bandwidth"] = {{"target_overhead", b->target_overhead},
                              {"per_node", b->per_node},
                              {"bandwidth_Bps", b->bandwidth_Bps ? json(*b->bandwidth_Bps) : json()},
                              {"units", b->units},
                              {"unit", b->unit},
                              {"floor_overhead", b->floor_overhead},
                              {"floor_bottleneck", b->floor_bottleneck}};
  if (const auto& b = r.inverse_bandwidth; b && b->purchase)
    j["inverse_bandwidth"]["purchase"] = {{"servers", b->purchase->servers}, {"drives", b->purchase->drives},
                                          {"nic_ports", b->purchase->nic_ports},
                                          {"storage_leaves", b->purchase->storage_leaves}};
  if (!r.levers.empty()) {
    j["levers"] = json::array();
    for (const PlanLever& l : r.levers)
      j["levers"].push_back({{"lever", l.name}, {"unit", l.unit}, {"units", l.units}, {"save_s", l.save_s},
                             {"restore_s", l.restore_s}, {"save_saved_s", l.save_saved_s},
                             {"restore_saved_s", l.restore_saved_s}, {"save_saved_per_unit_s", l.save_saved_per_unit_s}});
  }
  if (const auto& w = r.inverse_window)
    j["inverse_window"] = {{"window_s", w->window_s}, {"params", w->params}, {"total_bytes", w->total_bytes},
                           {"save_s", w->save_s}, {"training_state_per_gpu_bytes", w->training_state_per_gpu_bytes}};
  if (r.overhead_vs_bandwidth) j["overhead_vs_bandwidth"] = curve_json(*r.overhead_vs_bandwidth);
  if (!r.chart.empty()) j["chart"] = r.chart;
  if (!r.intervals.empty()) {
    j["intervals"] = json::object();
    for (const auto& [key, v] : r.intervals) j["intervals"][key] = to_json(v);
  }
  if (r.uncertainty) j["uncertainty"] = to_json(*r.uncertainty);
  if (r.sensitivity) j["sensitivity"] = to_json(*r.sensitivity);
  return j;
}

PlanCheckpointResult plan_result_from_json(const json& j, const std::string& file) {
  const JsonFields f(j, file, "");
  PlanCheckpointResult r;
  r.save = phase_from(*object(f, "save", true));
  r.restore = phase_from(*object(f, "restore", true));
  if (const auto p = object(f, "flush")) r.flush = phase_from(*p);
  r.name = f.text("name");
  r.fidelity = f.text("fidelity");
  if (f.has("settings") && !f.at("settings").is_null() && object(f, "settings")) r.settings = f.at("settings");
  else if (f.has("settings")) r.settings = nullptr;  // a plan asked with no settings at all
  r.storage_notes = f.texts("storage_notes");
  if (const auto s = object(f, "state")) {
    PlanStateResult& st = r.state;
    st.params = s->number("params");
    if (const auto b = object(*s, "bytes_per_param")) {
      st.weights = small_integer(*b, "weights");
      st.master = small_integer(*b, "master");
      st.moments = small_integer(*b, "moments");
      st.gradients = small_integer(*b, "gradients");
      st.saved = small_integer(*b, "saved");
    }
    st.total_bytes = s->number("total_bytes");
    st.writers = small_integer(*s, "writers");
    st.nodes = small_integer(*s, "nodes");
    st.rank_max_bytes = s->number("rank_max_bytes");
    st.node_max_bytes = s->number("node_max_bytes");
    st.training_state_per_gpu_bytes = s->number("training_state_per_gpu_bytes");
  }
  if (const auto n = object(f, "node")) r.node = node_from(*n);
  r.stall_s = f.number("stall_s");
  if (const auto x = object(f, "failures"))
    r.failures = {x->number("mttf_s"),     x->number("mtbf_s"),     x->number("young_interval_s"),
                  x->number("daly_interval_s"), x->number("interval_s"), x->number("recovery_s"),
                  x->number("waste_first_order")};
  r.availability = f.number("availability");
  r.availability_no_failures = f.number("availability_no_failures");
  r.overhead = f.number("overhead");
  if (const auto d = object(f, "per_day"))
    r.per_day = {d->number("gpu_hours_lost"), d->number("gpu_hours_checkpoint"), d->number("gpu_hours_rework"),
                 d->number("mwh_lost"),       d->number("mwh_checkpoint"),       d->number("mwh_rework")};
  r.cluster_power_W = f.number("cluster_power_W");
  r.power_wasted_W = f.number("power_wasted_W");
  r.warnings = f.texts("warnings");
  if (const auto b = object(f, "inverse_bandwidth")) {
    PlanInverseBandwidth ib;
    ib.target_overhead = b->number("target_overhead");
    ib.per_node = plan_flag(*b, "per_node");
    if (b->has("bandwidth_Bps") && !b->at("bandwidth_Bps").is_null()) ib.bandwidth_Bps = b->number("bandwidth_Bps");
    ib.units = b->number("units");
    ib.unit = b->text("unit");
    ib.floor_overhead = b->number("floor_overhead");
    ib.floor_bottleneck = b->text("floor_bottleneck");
    if (const auto p = object(*b, "purchase"))
      ib.purchase = PlanPurchase{static_cast<int>(p->integer("servers")), static_cast<int>(p->integer("drives")),
                                 static_cast<int>(p->integer("nic_ports")), static_cast<int>(p->integer("storage_leaves"))};
    r.inverse_bandwidth = ib;
  }
  if (f.has("levers")) {
    if (!f.at("levers").is_array()) f.fail("levers", "must be an array");
    for (std::size_t i = 0; i < f.at("levers").size(); ++i) {
      const JsonFields l(f.at("levers")[i], f.file(), f.pointer("levers", i), "not an object");
      r.levers.push_back(PlanLever{l.text("lever"), l.text("unit"), static_cast<int>(l.integer("units")),
                                   l.number("save_s"), l.number("restore_s"), l.number("save_saved_s"),
                                   l.number("restore_saved_s"), l.number("save_saved_per_unit_s")});
    }
  }
  if (const auto w = object(f, "inverse_window"))
    r.inverse_window = PlanInverseWindow{w->number("window_s"), w->integer("params"), w->number("total_bytes"),
                                         w->number("save_s"), w->number("training_state_per_gpu_bytes")};
  if (const auto c = object(f, "overhead_vs_bandwidth")) r.overhead_vs_bandwidth = curve_from(*c);
  r.chart = f.text("chart");
  if (const auto iv = object(f, "intervals"))
    for (const auto& item : f.at("intervals").items()) r.intervals[item.key()] = interval_from(*iv, item.key().c_str());
  if (f.has("uncertainty")) r.uncertainty = uncertainty_from(f, "uncertainty");
  if (f.has("sensitivity")) r.sensitivity = sensitivity_from(f, "sensitivity");
  return r;
}

}  // namespace iowall
