// yaml-language-server with its validation delay at 0 ms, for `npm run bench` (its compute time
// alone). The delay is not a setting: SettingsState sets validationDelayMs = 200 in its constructor
// (yaml-language-server out/server/src/yamlSettings.js), so this subclass sets it back to 0 before
// the unmodified server module creates its settings object.
const settings = require('yaml-language-server/out/server/src/yamlSettings');
const Base = settings.SettingsState;
settings.SettingsState = class extends Base {
  constructor() {
    super();
    this.validationDelayMs = 0;
  }
};
process.env.YAML_LANGUAGE_SERVER_VERSION = require('yaml-language-server/package.json').version;
require('yaml-language-server/out/server/src/server.js');
