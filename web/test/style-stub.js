// Stylesheets a view imports mean nothing on jsdom.
module.exports = {};
