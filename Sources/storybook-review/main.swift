import DemoCatalog
import StorybookReview

// The demo catalog's review commands alone (list, render, export, check): what a CI job that only
// checks goldens builds, without libwebsockets.
StorybookReviewCLI.main(catalog: try DemoCatalog.make())
