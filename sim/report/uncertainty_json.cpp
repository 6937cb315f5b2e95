#include "sim/report/uncertainty_json.hpp"

namespace iowall {

using nlohmann::json;

json to_json(const Interval& v) { return {{"median", v.median}, {"low", v.low}, {"high", v.high}}; }

json to_json(const PathIntervals& v) {
  json out = json::object();
  for (const HeadlineMetric& h : headline_metrics()) out[h.key] = to_json(v.*h.interval);
  return out;
}

json to_json(const UncertaintySummary& u) {
  json inputs = json::array();
  for (const UncertainInputSummary& i : u.inputs)
    inputs.push_back({{"label", i.label},
                      {"name", i.name},
                      {"text", i.text},
                      {"where", i.where},
                      {"places", i.places},
                      {"distribution", i.distribution},
                      {"low", i.low},
                      {"high", i.high}});
  json out = {{"samples", u.samples}, {"seed", u.seed}, {"level", u.level}, {"inputs", inputs}, {"notes", u.notes}};
  if (u.widened) {
    json kinds = json::object();
    for (const auto& [k, b] : u.widened->kinds) kinds[k] = {{"low", b.low}, {"high", b.high}, {"points", b.points}};
    out["widened_by"] = {{"source", u.widened->source}, {"kinds", kinds}};
  }
  return out;
}

json to_json(const SensitivityResult& s) {
  json rows = json::array();
  for (const SensitivityRow& r : s.rows) {
    json effects = json::object();
    for (const auto& [path, metrics] : r.effects)
      for (const auto& [metric, e] : metrics)
        effects[path][metric] = {{"at_low", e.at_low},
                                  {"at_high", e.at_high},
                                  {"elasticity", e.elasticity},
                                  {"direction", e.elasticity > 0 ? "up" : e.elasticity < 0 ? "down" : "none"}};
    rows.push_back({{"input", r.input}, {"low", r.low}, {"high", r.high}, {"effects", effects}});
  }
  json combined = json::array();
  for (const SensitivityCombined& c : s.combined)
    combined.push_back({{"path", c.path}, {"inputs", c.inputs}, {"at_low", c.at_low}, {"at_high", c.at_high},
                        {"nominal", c.nominal}});
  return {{"metric", s.metric}, {"rows", rows}, {"combined", combined}};
}

namespace {

const json& array_at(const JsonFields& f, const char* key) {
  static const json empty = json::array();
  if (!f.has(key)) return empty;
  if (!f.at(key).is_array()) f.fail(key, "not an array");
  return f.at(key);
}

}  // namespace

Interval interval_from(const JsonFields& parent, const char* key) {
  const JsonFields f(parent.at(key), parent.file(), parent.pointer(key));
  return {f.number("median"), f.number("low"), f.number("high")};
}

PathIntervals path_intervals_from(const JsonFields& parent, const char* key) {
  const JsonFields f(parent.at(key), parent.file(), parent.pointer(key));
  PathIntervals out;
  for (const HeadlineMetric& h : headline_metrics())
    if (f.has(h.key)) out.*h.interval = interval_from(f, h.key);
  return out;
}

UncertaintySummary uncertainty_from(const JsonFields& parent, const char* key) {
  const JsonFields f(parent.at(key), parent.file(), parent.pointer(key));
  UncertaintySummary u;
  u.samples = f.unsigned_integer("samples");
  u.seed = f.unsigned_integer("seed");
  u.level = f.number("level", 0.9);
  const json& inputs = array_at(f, "inputs");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const JsonFields in(inputs[i], f.file(), f.pointer("inputs", i));
    u.inputs.push_back({in.text("label"), in.text("name"), in.text("text"), in.text("where"), in.unsigned_integer("places"),
                        in.text("distribution"), in.text("low"), in.text("high")});
  }
  u.notes = f.texts("notes");
  if (f.has("widened_by")) {
    const JsonFields w(f.at("widened_by"), f.file(), f.pointer("widened_by"));
    Widening wd;
    wd.source = w.text("source");
    if (w.has("kinds")) {
      const JsonFields kinds(w.at("kinds"), w.file(), w.pointer("kinds"));
      for (const auto& item : w.at("kinds").items()) {
        const JsonFields b(item.value(), w.file(), kinds.pointer(item.key()));
        wd.kinds[item.key()] = {b.number("low"), b.number("high"), b.unsigned_integer("points")};
      }
    }
    u.widened = wd;
  }
  return u;
}

SensitivityResult sensitivity_from(const JsonFields& parent, const char* key) {
  const JsonFields f(parent.at(key), parent.file(), parent.pointer(key));
  SensitivityResult s;
  s.metric = f.text("metric", "throughput_GBps");
  const json& rows = array_at(f, "rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const JsonFields r(rows[i], f.file(), f.pointer("rows", i));
    SensitivityRow row{r.text("input"), r.text("low"), r.text("high"), {}};
    if (r.has("effects")) {
      const JsonFields effects(r.at("effects"), r.file(), r.pointer("effects"));
      for (const auto& path : r.at("effects").items()) {
        const JsonFields p(path.value(), r.file(), effects.pointer(path.key()));
        for (const auto& metric : path.value().items()) {
          const JsonFields e(metric.value(), r.file(), p.pointer(metric.key()));
          row.effects[path.key()][metric.key()] = {e.number("at_low"), e.number("at_high"), e.number("elasticity")};
        }
      }
    }
    s.rows.push_back(std::move(row));
  }
  const json& combined = array_at(f, "combined");
  for (std::size_t i = 0; i < combined.size(); ++i) {
    const JsonFields c(combined[i], f.file(), f.pointer("combined", i));
    s.combined.push_back({c.text("path"), c.texts("inputs"), c.number("at_low"), c.number("at_high"), c.number("nominal")});
  }
  return s;
}

}  // namespace iowall
