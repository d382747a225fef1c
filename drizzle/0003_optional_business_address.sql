-- Business settings (dashboards spec §5 "Business profile save"): an empty address is saved as null.
ALTER TABLE "business_profiles" ALTER COLUMN "address" DROP NOT NULL;
